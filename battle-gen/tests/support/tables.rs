//! The check both hex games' results tables get: every printed cell against the program.

/// Asserts that `result` (attacker's and defender's strengths, die) gives every cell of a
/// results table as the rules print it: `printed` row by row from a die of 1, each column read
/// with the strengths `exact` puts in it exactly.
pub fn every_cell(printed: &[&str], exact: &[(u32, u32)], result: impl Fn(u32, u32, u8) -> String) {
    for (row, line) in printed.iter().enumerate() {
        for (col, code) in line.split_whitespace().enumerate() {
            let (a, d) = exact[col];
            let die = u8::try_from(row + 1).unwrap();
            assert_eq!(result(a, d, die), code, "die {die}, {a} against {d}");
        }
    }
}
