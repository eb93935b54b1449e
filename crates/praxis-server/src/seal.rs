//! Sealing of receipts that carry a secret.
//!
//! A retried credential issue must return the original token byte for byte,
//! yet the store keeps only the SHA-256 of a secret. The receipt is therefore
//! stored encrypted (ChaCha20-Poly1305) under a key derived from the server's
//! seal key and the client's raw idempotency key; the store sees neither, only
//! a keyed hash of the idempotency key as the lookup key. Whoever retries with
//! the same key (and still holds the capability) can open the receipt. A
//! reader of the database cannot, not even by guessing low-entropy client
//! keys offline, because every derivation also needs the seal key, which is
//! kept outside the store.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use praxis_domain::digest::Digest;
use rand::Rng;

/// The server's 256-bit seal key. Every server of one store must share it.
#[derive(Clone)]
pub struct SealKey([u8; 32]);

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey(<secret>)")
    }
}

impl SealKey {
    /// A fresh random key.
    pub fn generate() -> SealKey {
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        SealKey(key)
    }

    /// Parses 64 hex characters.
    pub fn from_hex(text: &str) -> Option<SealKey> {
        let mut key = [0u8; 32];
        hex::decode_to_slice(text.trim(), &mut key).ok()?;
        Some(SealKey(key))
    }

    /// A fingerprint that names the key without revealing it (a digest
    /// under its own purpose), which the store records so that a server
    /// started with another key is refused.
    pub fn fingerprint(&self) -> String {
        self.derive("praxis.seal-key-fingerprint.v1", &[]).to_hex()
    }

    /// The key as 64 hex characters, for storing it.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// A domain-separated keyed hash of `parts`, each length-prefixed so
    /// that no two part lists share an encoding.
    pub(crate) fn derive(&self, purpose: &str, parts: &[&str]) -> Digest {
        let mut material = Vec::with_capacity(128);
        material.extend_from_slice(purpose.as_bytes());
        material.push(b'\n');
        material.extend_from_slice(&self.0);
        for part in parts {
            material.extend_from_slice(&(part.len() as u64).to_be_bytes());
            material.extend_from_slice(part.as_bytes());
        }
        Digest::sha256(&material)
    }

    fn cipher(&self, tenant: &str, raw_key: &str) -> ChaCha20Poly1305 {
        let key = self.derive("praxis.seal.v2", &[tenant, raw_key]);
        ChaCha20Poly1305::new(&Key::from(key.0))
    }

    /// The storage key of an idempotency key: scoped to the tenant and the
    /// credential subject, and keyed-hashed so the store never holds the
    /// client's key.
    pub fn storage_key(&self, tenant: &str, subject: &str, raw_key: &str) -> String {
        let hash = self.derive("praxis.idempotency.v2", &[tenant, subject, raw_key]);
        format!("idem:{}", hash.to_hex())
    }

    /// Encrypts receipt bytes bound to their storage key; output is nonce ‖ ciphertext.
    pub fn seal(
        &self,
        tenant: &str,
        raw_key: &str,
        storage_key: &str,
        plaintext: &[u8],
    ) -> Vec<u8> {
        let mut nonce = [0u8; 12];
        rand::rng().fill_bytes(&mut nonce);
        let mut out = nonce.to_vec();
        let payload = Payload {
            msg: plaintext,
            aad: storage_key.as_bytes(),
        };
        let sealed = self
            .cipher(tenant, raw_key)
            .encrypt(&Nonce::from(nonce), payload)
            .expect("encryption of an in-memory buffer cannot fail");
        out.extend(sealed);
        out
    }

    /// Decrypts a sealed receipt; `None` if these keys do not open it.
    pub fn open(
        &self,
        tenant: &str,
        raw_key: &str,
        storage_key: &str,
        sealed: &[u8],
    ) -> Option<Vec<u8>> {
        if sealed.len() < 12 {
            return None;
        }
        let (nonce, body) = sealed.split_at(12);
        let nonce = Nonce::try_from(nonce).ok()?;
        let payload = Payload {
            msg: body,
            aad: storage_key.as_bytes(),
        };
        self.cipher(tenant, raw_key).decrypt(&nonce, payload).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_server_tenant_and_key_open_a_seal() {
        let k = SealKey::generate();
        let raw = "0123456789abcdef";
        let sk = k.storage_key("t", "r", raw);
        let sealed = k.seal("t", raw, &sk, b"token");
        assert_eq!(
            k.open("t", raw, &sk, &sealed).as_deref(),
            Some(&b"token"[..])
        );
        assert_eq!(k.open("t", "0123456789abcdeF", &sk, &sealed), None);
        assert_eq!(k.open("u", raw, &sk, &sealed), None);
        assert_eq!(
            k.open("t", raw, "idem:other", &sealed),
            None,
            "bound to its storage key"
        );
        assert_eq!(
            SealKey::generate().open("t", raw, &sk, &sealed),
            None,
            "needs the server key"
        );
        assert!(!sealed.windows(5).any(|w| w == b"token"));
    }

    #[test]
    fn storage_keys_need_the_server_key() {
        let (a, b) = (SealKey::generate(), SealKey::generate());
        assert_ne!(a.storage_key("t", "r", "k"), b.storage_key("t", "r", "k"));
        assert_ne!(a.storage_key("t", "r", "k"), a.storage_key("u", "r", "k"));
        assert_ne!(a.storage_key("t", "r", "k"), a.storage_key("t", "s", "k"));
        assert_ne!(
            a.storage_key("t", "ab", "c"),
            a.storage_key("t", "a", "bc"),
            "parts are delimited"
        );
        assert!(a.storage_key("t", "r", "k").starts_with("idem:"));
        let back = SealKey::from_hex(&a.to_hex()).unwrap();
        assert_eq!(
            back.storage_key("t", "r", "k"),
            a.storage_key("t", "r", "k")
        );
        assert!(!format!("{a:?}").contains(&a.to_hex()));
    }
}
