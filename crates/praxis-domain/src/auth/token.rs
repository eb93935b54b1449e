//! Credential tokens: `prx_<id>_<secret>`, how they parse and render, and
//! how a presented secret is compared with the stored hash.

use std::fmt;
use std::str::FromStr;

use subtle::ConstantTimeEq;

use crate::digest::Digest;
use crate::error::DomainError;

/// Prefix of every credential token.
pub const TOKEN_PREFIX: &str = "prx";

/// A parsed `prx_<id>_<secret>` token. The secret is 32 random bytes in hex.
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    /// The credential id (lowercase hex, no underscores).
    pub credential_id: String,
    /// The secret bytes.
    pub secret: [u8; 32],
}

impl Token {
    /// SHA-256 of the secret, the only form of it that is ever stored.
    pub fn secret_hash(&self) -> Digest {
        Digest::sha256(&self.secret)
    }

    /// Renders the token; only ever shown once, to its holder.
    pub fn render(&self) -> String {
        format!(
            "{TOKEN_PREFIX}_{}_{}",
            self.credential_id,
            hex::encode(self.secret)
        )
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({}, <secret>)", self.credential_id)
    }
}

impl FromStr for Token {
    type Err = DomainError;

    fn from_str(s: &str) -> Result<Self, DomainError> {
        let mut parts = s.splitn(3, '_');
        let (Some(TOKEN_PREFIX), Some(id), Some(secret)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(DomainError::MalformedToken);
        };
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(DomainError::MalformedToken);
        }
        let mut bytes = [0u8; 32];
        if secret.len() != 64 || hex::decode_to_slice(secret, &mut bytes).is_err() {
            return Err(DomainError::MalformedToken);
        }
        Ok(Token {
            credential_id: id.to_owned(),
            secret: bytes,
        })
    }
}

/// Compares a presented secret with a stored hash in constant time.
pub fn secret_matches(token: &Token, stored: &Digest) -> bool {
    token.secret_hash().0.ct_eq(&stored.0).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_reject_malformed() {
        let t = Token {
            credential_id: "0a1b".into(),
            secret: [7; 32],
        };
        let parsed: Token = t.render().parse().unwrap();
        assert_eq!(parsed, t);
        assert!(secret_matches(&parsed, &t.secret_hash()));
        for bad in ["", "prx_", "prx_ab", "xyz_ab_00", "prx_a_b_c", "prx__00"] {
            assert!(bad.parse::<Token>().is_err(), "{bad}");
        }
        assert!(!format!("{t:?}").contains("0707"));
    }
}
