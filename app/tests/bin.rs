//! the real `referee` binary — exit codes and the single error line on stderr.

use std::process::Command;

fn referee(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_referee")).arg("--db").arg(db).args(args).output().expect("the referee binary runs")
}

#[test]
fn x_06_binary_exit_codes_and_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bin.sqlite");
    let ok = referee(&db, &["new", "second-punic", "--name", "Archimedes", "--json"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let created: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(created["scenario"], "second-punic");
    let before = std::fs::read(&db).unwrap();
    let bad = referee(&db, &["roll", "Archimedes", "d6", "--purpose", "x", "--value", "0"]);
    assert_eq!(bad.status.code(), Some(1));
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(stderr, "error: 0 cannot be rolled on a d6 (roll for x) — X-02\n");
    assert!(bad.stdout.is_empty());
    assert_eq!(std::fs::read(&db).unwrap(), before);
    let usage = referee(&db, &["roll"]);
    assert_eq!(usage.status.code(), Some(2));
    assert_eq!(String::from_utf8(usage.stderr).unwrap().lines().count(), 1);
}
