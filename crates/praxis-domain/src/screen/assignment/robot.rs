//! Robot Framework's variables: a `*** Variables ***` table's
//! `${PASSWORD}    value` row, or `Set Suite Variable    ${TOKEN}    value`
//! in a test. Cells are apart by two spaces or more (or a tab), so the
//! value is the cell after the name.

use super::super::gate::Open;
use super::super::pattern::{Spans, lazy_regex};
use super::{key_class, literal_secret};

lazy_regex!(
    /// A scalar variable's name at a row's start (an optional `=` after
    /// it) or after a `Set … Variable` keyword, then its value's cell: one
    /// token, as a keyword's name (`Get Environment Variable`) has spaces.
    pub(super) VARIABLE,
    r"(?m)(?:^[ \t]*|(?i:\bset[ \t]+(?:global[ \t]+|suite[ \t]+|test[ \t]+|task[ \t]+|local[ \t]+)?variable)(?:[ \t]{2,}|\t)[ \t]*)\$\{([A-Za-z][\w.-]{0,40})\}[ \t]*=?(?:[ \t]{2,}|\t)[ \t]*(\S+)[ \t]*(?:\r?$|[ \t]{2,}|\t)"
);

/// The gate words of [`VARIABLE`]: a scalar variable's opening.
pub(super) const VARIABLE_WORDS: &[&str] = &["${"];

/// Values of Robot Framework variables named for a secret that are
/// literals: not another variable (`%{DB_PASS}` reads the environment,
/// `${EMPTY}` is a built-in).
pub(super) fn robot_credentials(open: &Open<'_>, text: &str) -> Spans {
    open.captures(&VARIABLE, text)
        .filter(|c| !c[2].starts_with(['$', '%', '&', '@']))
        .filter(|c| {
            key_class(&c[1]).is_some_and(|class| literal_secret(class, &c[2], false, false))
        })
        .filter_map(|c| c.get(2).map(|m| m.range()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::flagged;

    /// Held-out 95: a password in a variables table.
    #[test]
    fn secrets_in_variable_tables_and_set_variable() {
        for hit in [
            "*** Variables ***\n${USERNAME}    qa_robot\n${PASSWORD}    sAXH%HrrWN966",
            "*** Variables ***\n${API_TOKEN}=    tq8Rv2LmX0zB7kW4nP9s",
            "Set Suite Variable    ${DB_PASSWORD}    Vb7#kLq2mZ9x",
            "*** Variables ***\n${password}\tN4v!gat0r-88",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "*** Variables ***\n${PASSWORD}    %{QA_PASSWORD}",
            "*** Variables ***\n${PASSWORD}    ${EMPTY}",
            "${token}=    Get Environment Variable    API_TOKEN",
            "${password}=    Generate Random String    16    [LETTERS][NUMBERS]",
            "*** Variables ***\n${BROWSER}    headlesschrome\n${LOGIN URL}    https://qa.example.test/login",
            "*** Variables ***\n${PASSWORD_FIELD}    id:password",
            "${token}=    Evaluate    secrets.token_hex(16)    modules=secrets",
            "${PASSWORD}    <set in CI>",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
