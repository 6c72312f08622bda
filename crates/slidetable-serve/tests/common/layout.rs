//! Layouts read back from the API's answers, where they are arrays of tiles (docs/JSON.md).

use slidetable::core::{Board, Layout};

/// The layout `value` gives as an array of tiles, if it is one of `board`.
pub(crate) fn layout_of(board: Board, value: &serde_json::Value) -> Option<Layout> {
    let tiles: Vec<u8> = value
        .as_array()?
        .iter()
        .map(|t| t.as_u64().and_then(|t| u8::try_from(t).ok()))
        .collect::<Option<_>>()?;
    Layout::new(board, &tiles).ok()
}
