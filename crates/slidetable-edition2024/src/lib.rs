//! Not published: a project of edition 2024 (what `cargo new` makes) that uses the `slidetable`
//! facade. `cargo test` compiles the README's library example (its example `library`:
//! `crates/slidetable/examples/library.rs`, the same file word for word) in this edition, where
//! `gen` is a reserved word: the facade's modules must be usable without `r#`; its test runs the
//! one-call forms on tables made in memory.
