//! What a record search's text means, the same on both engines.
//!
//! A query is cut into words at every character that is neither a letter
//! nor a digit, so `rate-limit` asks for `rate` and `limit`, and quotes,
//! operators and wildcards are separators, never query syntax. Every word
//! must occur in a record (after stemming by the engine's tokenizer: FTS5's
//! `porter unicode61`, PostgreSQL's `english` configuration), and matching
//! records are ranked by relevance.

/// Most words a query keeps; further words are ignored.
pub const MAX_QUERY_WORDS: usize = 32;

/// The words of a query: lowercased, in order, each once. Empty when the
/// text holds no letter or digit.
pub fn query_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let word = word.to_lowercase();
        if !words.contains(&word) {
            words.push(word);
        }
        if words.len() == MAX_QUERY_WORDS {
            break;
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyphens_quotes_and_operators_separate_words() {
        assert_eq!(query_words("rate-limit"), ["rate", "limit"]);
        assert_eq!(
            query_words("\"junction\" OR NEAR(volume* -x)"),
            ["junction", "or", "near", "volume", "x"]
        );
        assert_eq!(query_words("Café CAFÉ naïve"), ["café", "naïve"]);
        assert!(query_words("\"*\" -- () ^ :").is_empty());
    }

    #[test]
    fn a_long_query_keeps_its_first_words() {
        let text = (0..100)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let words = query_words(&text);
        assert_eq!(words.len(), MAX_QUERY_WORDS);
        assert_eq!(words[0], "w0");
    }
}
