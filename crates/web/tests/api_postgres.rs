//! The API suite of `api.rs` once more, each test on a database of its own
//! on the PostgreSQL server that `BANMEN_TEST_POSTGRES` names
//! (`postgres://USER@HOST/DB`, a role that may create databases; `.ci/run`
//! starts one). Without it each test prints "skipped: BANMEN_TEST_POSTGRES not
//! set" and passes.

#[path = "api.rs"]
mod api;
