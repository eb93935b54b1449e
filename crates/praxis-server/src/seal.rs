//! Sealing of receipts that carry a secret.
//!
//! A retried credential issue must return the original token byte for byte,
//! yet the store keeps only the SHA-256 of a secret. The receipt is therefore
//! stored encrypted (ChaCha20-Poly1305) under a key derived from the client's
//! raw idempotency key, which the store never sees: only its hash is the
//! storage key. Whoever retries with the same key (and still holds the
//! capability) can open the receipt; a reader of the database cannot.

use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use praxis_domain::digest::Digest;
use rand::Rng;

fn cipher(tenant: &str, raw_key: &str) -> ChaCha20Poly1305 {
    let material = format!("praxis.seal.v1\n{tenant}\n{raw_key}");
    let key = Digest::sha256(material.as_bytes());
    ChaCha20Poly1305::new(&Key::from(key.0))
}

/// The storage key of an idempotency key: route-scoped and hashed.
pub fn storage_key(route: &str, raw_key: &str) -> String {
    format!("{route}:{}", Digest::sha256(raw_key.as_bytes()).to_hex())
}

/// Encrypts receipt bytes; output is nonce ‖ ciphertext.
pub fn seal(tenant: &str, raw_key: &str, plaintext: &[u8]) -> Vec<u8> {
    let mut nonce = [0u8; 12];
    rand::rng().fill_bytes(&mut nonce);
    let mut out = nonce.to_vec();
    let sealed = cipher(tenant, raw_key)
        .encrypt(&Nonce::from(nonce), plaintext)
        .expect("encryption of an in-memory buffer cannot fail");
    out.extend(sealed);
    out
}

/// Decrypts a sealed receipt; `None` if the key does not open it.
pub fn open(tenant: &str, raw_key: &str, sealed: &[u8]) -> Option<Vec<u8>> {
    if sealed.len() < 12 {
        return None;
    }
    let (nonce, body) = sealed.split_at(12);
    let nonce = Nonce::try_from(nonce).ok()?;
    cipher(tenant, raw_key).decrypt(&nonce, body).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_tenant_and_key_open_a_seal() {
        let sealed = seal("t", "0123456789abcdef", b"token");
        assert_eq!(
            open("t", "0123456789abcdef", &sealed).as_deref(),
            Some(&b"token"[..])
        );
        assert_eq!(open("t", "0123456789abcdeF", &sealed), None);
        assert_eq!(open("u", "0123456789abcdef", &sealed), None);
        assert!(!sealed.windows(5).any(|w| w == b"token"));
    }
}
