//! Robot Framework's variables: a `*** Variables ***` table's
//! `${PASSWORD}    value` row, or `Set Suite Variable    ${TOKEN}    value`,
//! `VAR    ${TOKEN}    value` or `${TOKEN}=    Set Variable    value` in a
//! test. Cells are apart by two spaces or more (or a tab), so the value is
//! the cell after the name.

use super::super::gate::Open;
use super::super::pattern::{Spans, lazy_regex};
use super::{key_class, literal_secret};

lazy_regex!(
    /// A scalar variable's name (`${NAME}`, names may hold single spaces;
    /// `\${NAME}` or `$NAME` as `Set … Variable` also takes it) at a row's
    /// start (an optional `=` after it), after a `Set … Variable` keyword
    /// or Robot Framework 7's `VAR`, then its value's cell, also after a
    /// `Set Variable` call: one token, as a keyword's name (`Get
    /// Environment Variable`) has spaces.
    pub(super) VARIABLE,
    r"(?m)(?:(?:^[ \t]*|\bVAR(?:[ \t]{2,}|\t)[ \t]*)\\?\$\{([A-Za-z][\w.-]*(?: [\w.-]+){0,3})\}|(?i:\bset[ \t]+(?:global[ \t]+|suite[ \t]+|test[ \t]+|task[ \t]+|local[ \t]+)?variable)(?:[ \t]{2,}|\t)[ \t]*(?:\\?\$\{([A-Za-z][\w.-]*(?: [\w.-]+){0,3})\}|\$([A-Za-z_]\w*)))[ \t]*=?(?:[ \t]{2,}|\t)[ \t]*(?:(?i:set[ \t]+variable)(?:[ \t]{2,}|\t)[ \t]*)?(\S+)[ \t]*(?:\r?$|[ \t]{2,}|\t)"
);

/// The gate words of [`VARIABLE`]: a braced variable's opening, or the
/// keyword that alone takes a bare `$NAME`.
pub(super) const VARIABLE_WORDS: &[&str] = &["${", "variable"];

/// Selenium's locator strategies: `id:password` names the field a
/// password goes into, not the password.
const LOCATOR_STRATEGIES: &[&str] = &[
    "id",
    "name",
    "css",
    "xpath",
    "class",
    "link",
    "partial link",
    "tag",
    "dom",
    "jquery",
    "sizzle",
    "identifier",
    "element",
    "text",
    "data",
    "accessibility_id",
    "android",
    "ios",
    "chain",
];

/// Whether a cell is a locator (`id:password`, `css=#pw`, `//input`).
fn locator(v: &str) -> bool {
    v.starts_with("//")
        || v.split_once([':', '=']).is_some_and(|(strategy, _)| {
            LOCATOR_STRATEGIES
                .iter()
                .any(|s| s.eq_ignore_ascii_case(strategy))
        })
}

/// Values of Robot Framework variables named for a secret that are
/// literals: not another variable (`%{DB_PASS}` reads the environment,
/// `${EMPTY}` is a built-in) and not a locator.
pub(super) fn robot_credentials(open: &Open<'_>, text: &str) -> Spans {
    open.captures(&VARIABLE, text)
        .filter(|c| {
            let v = &c[4];
            let variable = v.starts_with(['$', '%', '&', '@']) && v[1..].starts_with('{');
            !variable && !locator(v)
        })
        .filter(|c| {
            let name = (1..=3).find_map(|i| c.get(i)).map_or("", |m| m.as_str());
            key_class(&name.replace(' ', "_"))
                .is_some_and(|class| literal_secret(class, &c[4], false, false))
        })
        .filter_map(|c| c.get(4).map(|m| m.range()))
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
            "*** Variables ***\n${ADMIN PASSWORD}    Tr0ub4dor&3x",
            "    ${api_token}=    Set Variable    tq8Rv2LmX0zB7kW4nP9s",
            "    Set Global Variable    \\${API_KEY}    a8F3kq9Zr2LmX7wP0tN5",
            "    Set Suite Variable    $DB_PASSWORD    Vb7#kLq2mZ9x",
            "    VAR    ${PASSWORD}    Vb7#kLq2mZ9x    scope=SUITE",
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
            "*** Variables ***\n${USERNAME}    id:username\n${PASSWORD}    id:password",
            "*** Variables ***\n${LOGIN_PASSWORD}    css:#password\n${TOKEN}    name:token",
            "*** Variables ***\n${PASSWORD}    //input[@type='password']",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
