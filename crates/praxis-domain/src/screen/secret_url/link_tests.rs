//! Links whose secret only their service's shape tells: a password-reset
//! link's key, an intake URL's token in its path.

use crate::screen::fires;
use crate::screen::rule::Rule;

/// Held-out 105: WordPress's reset link carries its key in `key=`, twenty
/// letters and digits that may hold no digit.
#[test]
fn a_wordpress_reset_link_carries_its_key() {
    for hit in [
        "Password reset mail for editor: https://blog.example-wein.de/wp-login.php?action=rp&key=aceihSLoQEPhiRJVtjyZ&login=editor&wp_lang=de_DE",
        "https://shop.example.net/wp-login.php?login=admin&key=Tq8vR2xLm9wKz4PbN7cD&action=resetpass",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://blog.example.de/wp-login.php?action=rp&key=YOUR_RESET_KEY&login=editor",
        "https://blog.example.de/wp-login.php?action=lostpassword",
        "https://maps.example.com/embed?key=aceihSLoQEPhiRJVtjyZ&q=berlin",
        "https://blog.example.de/wp-login.php?action=rp&key=abcdefghijklmnopqrst&login=editor",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 105: a Sumo Logic HTTP source's URL ends in its token.
#[test]
fn a_sumo_logic_collector_url_ends_in_its_token() {
    let hit = "sumo endpoint: https://endpoint4.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaVZYnLJcaa1BqyEGjOLX44Qnfy7EQPrd8SJtXLw_EzgRonMu8RDeQamKU3sj5Hu08TeJic-yW_eKEh2iO5Khjdnerhy5==";
    assert!(fires(hit, Rule::SecretUrl));
    for region in [
        "endpoint1.collection.us2",
        "endpoint6.collection.eu",
        "collection-au",
    ] {
        let hit = format!(
            "https://{region}.sumologic.com/receiver/v1/http/ZaVnC4dhaVZYnLJcaa1BqyEGjOLX44Qnfy7EQPrd8SJtXLw"
        );
        assert!(fires(&hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://endpoint4.collection.sumologic.com/receiver/v1/http/XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "https://endpoint4.collection.sumologic.com/receiver/v1/http/<your-unique-token>",
        "Sumo Logic docs: https://help.sumologic.com/docs/send-data/hosted-collectors/http-source/",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}
