//! The one way hashes are written (state hashes, save seals, rules and scenario fingerprints):
//! `sha256:` and the digest in lower-case hex, so that any two can be compared as text.

use sha2::{Digest, Sha256};

/// `sha256:` and the hex of a finished digest.
pub fn sha256_label(digest: &[u8]) -> String {
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// `sha256:` of `bytes`.
pub fn sha256_of(bytes: &[u8]) -> String {
    sha256_label(&Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_digest_is_written_in_lower_case_hex_after_its_name() {
        assert_eq!(
            super::sha256_of(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
