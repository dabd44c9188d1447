//! uuid values (docs/format.md 2.3): [`uuid::Uuid`], whose 16 bytes are the wire's.

pub use uuid::Uuid;

/// Why uuid text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UuidError;

impl std::fmt::Display for UuidError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid hex digit in uuid")
    }
}

impl std::error::Error for UuidError {}

/// Reads uuid text as the original does (docs/format.md 2.3): `-`, `{` and `}` are skipped
/// anywhere, the rest is read in pairs of hex digits of either case, reading stops after 16
/// bytes and a short text leaves the rest zero; a non-hex digit is an error.
///
/// ```
/// let u = fbe::parse_uuid("{123E4567-e89b-12d3-a456-426655440000}").unwrap();
/// assert_eq!(u.to_string(), "123e4567-e89b-12d3-a456-426655440000");
/// assert_eq!(fbe::parse_uuid("12").unwrap().as_bytes()[..2], [0x12, 0]);
/// ```
pub fn parse_uuid(text: &str) -> Result<Uuid, UuidError> {
    let mut bytes = [0u8; 16];
    let (mut i, mut high, mut acc) = (0, false, 0u8);
    for c in text.bytes() {
        if i == 16 {
            break;
        }
        let v = match c {
            b'-' | b'{' | b'}' => continue,
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return Err(UuidError),
        };
        if high {
            bytes[i] = (acc << 4) | v;
            i += 1;
        } else {
            acc = v;
        }
        high = !high;
    }
    Ok(Uuid::from_bytes(bytes))
}

/// A random uuid (schema constant `uuid4`).
pub fn uuid4() -> Uuid {
    Uuid::new_v4()
}

/// A time-based uuid (schema constant `uuid1`) with a random node id (RFC 4122 4.5: the
/// multicast bit set, so it is no real MAC address).
pub fn uuid1() -> Uuid {
    use std::sync::OnceLock;
    static NODE: OnceLock<[u8; 6]> = OnceLock::new();
    let node = NODE.get_or_init(|| {
        let r = Uuid::new_v4();
        let mut n = [0u8; 6];
        n.copy_from_slice(&r.as_bytes()[..6]);
        n[0] |= 0x01;
        n
    });
    Uuid::now_v1(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_is_the_text_order() {
        let u = parse_uuid("123e4567-e89b-12d3-a456-426655440000").unwrap();
        assert_eq!(
            *u.as_bytes(),
            [0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00]
        );
        assert_eq!(parse_uuid("123e4567e89b12d3a456426655440000ffff").unwrap(), u); // stops after 16 bytes
        assert_eq!(parse_uuid("12-3g"), Err(UuidError));
        assert_eq!(uuid4().get_version_num(), 4);
        let (a, b) = (uuid1(), uuid1());
        assert_eq!(a.get_version_num(), 1);
        assert_ne!(a, b);
    }
}
