//! Capabilities, scope grants, namespaces, principals and credential tokens.
//! The credentials that carry them, which are events of the ledger, live in
//! [`crate::credentials`].
//!
//! Authority comes only from a credential: its capabilities (none implies
//! another) and its grants (exact scope tuples). A request body can name a
//! scope, but the credential decides whether the caller may act in it.

pub(crate) mod capability;
pub(crate) mod principal;
pub(crate) mod scope;
pub(crate) mod token;

pub use capability::Capability;
pub use principal::{Denied, Principal};
pub use scope::{MAX_ID_LEN, Namespace, Scope, Visibility, check_id};
pub use token::{TOKEN_PREFIX, Token, secret_matches};
