//! The schemas of docs/JSON.md and their checker, for every suite that checks JSON output
//! against them (the command line's `--json`, the server's `/api/*`), so both surfaces are
//! held to one document. The notation is the document's own ("Notation of the schemas").

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

/// The `json schema=NAME` blocks of docs/JSON.md.
pub fn schemas() -> &'static BTreeMap<String, Value> {
    static SCHEMAS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let doc = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/JSON.md"),
        )
        .unwrap();
        let mut schemas = BTreeMap::new();
        let mut lines = doc.lines();
        while let Some(line) = lines.next() {
            if let Some(name) = line.strip_prefix("```json schema=") {
                let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
                let schema: Value = serde_json::from_str(&body.join("\n"))
                    .unwrap_or_else(|e| panic!("schema {name}: {e}"));
                schemas.insert(name.trim().to_string(), schema);
            }
        }
        assert!(schemas.len() >= 10, "{schemas:?}");
        schemas
    })
}

/// Why `value` does not match `schema` (at `at`), if it does not.
pub fn check(value: &Value, schema: &Value, at: &str) -> Result<(), String> {
    match schema {
        Value::String(types) => {
            let ok = types.split('|').any(|t| match t {
                "int" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "string" => value.is_string(),
                "bool" => value.is_boolean(),
                "null" => value.is_null(),
                other => panic!("unknown type {other} in a schema"),
            });
            if ok {
                Ok(())
            } else {
                Err(format!("{at}: {value} is not {types}"))
            }
        }
        Value::Array(element) => {
            let items = value
                .as_array()
                .ok_or_else(|| format!("{at}: {value} is not an array"))?;
            items
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| check(v, &element[0], &format!("{at}[{i}]")))
        }
        Value::Object(fields) => {
            if let Some(name) = fields.get("ref") {
                let schema = &schemas()[name.as_str().unwrap()];
                return check(value, schema, at);
            }
            if let Some(options) = fields.get("one of") {
                let errors: Vec<String> = options
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|s| check(value, s, at).err())
                    .collect();
                return if errors.len() < options.as_array().unwrap().len() {
                    Ok(())
                } else {
                    Err(errors.join("; or "))
                };
            }
            let object = value
                .as_object()
                .ok_or_else(|| format!("{at}: {value} is not an object"))?;
            if let Some(each) = fields.get("map of") {
                return object
                    .iter()
                    .try_for_each(|(k, v)| check(v, each, &format!("{at}.{k}")));
            }
            for (key, s) in fields {
                let (name, optional) = match key.strip_suffix('?') {
                    Some(name) => (name, true),
                    None => (key.as_str(), false),
                };
                match object.get(name) {
                    Some(v) => check(v, s, &format!("{at}.{name}"))?,
                    None if optional => {}
                    None => return Err(format!("{at}: no key {name} in {value}")),
                }
            }
            for key in object.keys() {
                if !fields.contains_key(key) && !fields.contains_key(&format!("{key}?")) {
                    return Err(format!("{at}: unexpected key {key}"));
                }
            }
            Ok(())
        }
        _ => panic!("not a schema: {schema}"),
    }
}

/// Why `value` does not match the schema `name` of docs/JSON.md, if it does not.
pub fn matches(value: &Value, name: &str) -> Result<(), String> {
    let schema = schemas()
        .get(name)
        .unwrap_or_else(|| panic!("no schema {name} in docs/JSON.md"));
    check(value, schema, name)
}
