//! The network file (`.nnue`): a header that names the architecture and the quantisation, the
//! integer weights, and a CRC-32 of everything before it (`docs/formats/nnue.md`). Writer and
//! reader live here together and are round-trip tested; a file is checked whole when it is read,
//! so a damaged or foreign file is a typed error and never a wrong evaluation.

use std::path::Path;

use super::features::INPUTS;
use super::network::{MAX_BUCKETS, Network, QA, QB};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"CHRTNNUE";
/// The format version this module writes; it reads versions 1 (one output, no bucket count in
/// the header) and 2.
pub const VERSION: u32 = 2;
/// Bytes of the header (version 2; version 1's has no bucket count and is 4 bytes shorter).
pub const HEADER_SIZE: usize = 32;

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The bytes are not a network this build can use.
    #[error("{name}: {what}")]
    Corrupted {
        /// The file (or "embedded network").
        name: String,
        /// What is wrong.
        what: String,
    },
}

/// The file's bytes for `net`.
#[must_use]
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let (hidden, buckets) = (net.hidden(), net.buckets());
    let weights = INPUTS * hidden + hidden + 2 * hidden * buckets;
    let mut out = Vec::with_capacity(HEADER_SIZE + 2 * weights + 4 * buckets + 4);
    out.extend_from_slice(&MAGIC);
    for v in [VERSION, INPUTS as u32, hidden as u32, QA as u32, QB as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(buckets as u32).to_le_bytes());
    for w in net.w1.iter().chain(&net.b1).chain(&net.w2) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.b2 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Reads a network from a file's bytes; `name` stands for the file in errors.
///
/// # Errors
///
/// [`NetError::Corrupted`] naming what is wrong: the magic, the version, an architecture or
/// quantisation this build does not use, the size, the checksum.
pub fn from_bytes(name: &str, b: &[u8]) -> Result<Network, NetError> {
    let bad = |what: String| NetError::Corrupted {
        name: name.to_string(),
        what,
    };
    if b.len() < 28 + 4 {
        return Err(bad(format!("{} bytes is too short for a network", b.len())));
    }
    if b[..8] != MAGIC {
        return Err(bad("not a Chariot network (wrong magic)".into()));
    }
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let (version, inputs, hidden, qa, qb) =
        (u32_at(8), u32_at(12), u32_at(16), u32_at(20), u32_at(24));
    let (header, buckets) = match version {
        1 => (28, 1),
        2 => (HEADER_SIZE, u32_at(28)),
        _ => {
            return Err(bad(format!(
                "format version {version}, this build reads 1 and {VERSION}"
            )));
        }
    };
    if inputs as usize != INPUTS {
        return Err(bad(format!(
            "{inputs} inputs, this build's features are {INPUTS}"
        )));
    }
    if !(1..=4096).contains(&hidden) {
        return Err(bad(format!("{hidden} hidden neurons (1 to 4096 are read)")));
    }
    if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
        return Err(bad(format!(
            "{buckets} output buckets (1 to {MAX_BUCKETS} are read)"
        )));
    }
    if (qa, qb) != (QA as u32, QB as u32) {
        return Err(bad(format!(
            "quantisation {qa}/{qb}, this build uses {QA}/{QB}"
        )));
    }
    let (hidden, buckets) = (hidden as usize, buckets as usize);
    let weights = INPUTS * hidden + hidden + 2 * hidden * buckets;
    let expected = header + 2 * weights + 4 * buckets + 4;
    if b.len() != expected {
        return Err(bad(format!(
            "{} bytes, the header's architecture needs {expected}",
            b.len()
        )));
    }
    let body = &b[..expected - 4];
    if crc32fast::hash(body) != u32_at(expected - 4) {
        return Err(bad("checksum mismatch (the file is damaged)".into()));
    }
    let i16s: Vec<i16> = b[header..header + 2 * weights]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let (w1, rest) = i16s.split_at(INPUTS * hidden);
    let (b1, w2) = rest.split_at(hidden);
    let b2 = b[header + 2 * weights..expected - 4]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(Network::from_parts(
        w1.to_vec(),
        b1.to_vec(),
        w2.to_vec(),
        b2,
    ))
}

/// Reads a network file.
///
/// # Errors
///
/// [`NetError::Io`] when it cannot be read, [`NetError::Corrupted`] as for [`from_bytes`].
pub fn read(path: &Path) -> Result<Network, NetError> {
    let bytes = std::fs::read(path).map_err(|source| NetError::Io {
        path: path.display().to_string(),
        source,
    })?;
    from_bytes(&path.display().to_string(), &bytes)
}

/// Writes a network file atomically ([`chariot_formats::atomic`]): a crash never leaves a half-written
/// network under the real name.
///
/// # Errors
///
/// [`chariot_formats::atomic::WriteError`] naming `path`.
pub fn write(path: &Path, net: &Network) -> Result<(), chariot_formats::atomic::WriteError> {
    chariot_formats::atomic::write(path, &to_bytes(net))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Network {
        bucketed(1)
    }

    fn bucketed(buckets: usize) -> Network {
        let hidden = 8;
        let w1 = (0..INPUTS * hidden).map(|i| (i % 61) as i16 - 30).collect();
        let b1 = (0..hidden).map(|i| i as i16 * 3).collect();
        let w2 = (0..2 * hidden * buckets).map(|i| 20 - i as i16).collect();
        Network::from_parts(
            w1,
            b1,
            w2,
            (0..buckets as i32).map(|b| b * 9 - 77).collect(),
        )
    }

    #[test]
    fn a_network_round_trips_through_bytes_and_files() {
        for buckets in [1, 3, MAX_BUCKETS] {
            let net = bucketed(buckets);
            let bytes = to_bytes(&net);
            assert_eq!(from_bytes("mem", &bytes).unwrap(), net);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("n.nnue");
            write(&path, &net).unwrap();
            assert_eq!(read(&path).unwrap(), net);
        }
    }

    #[test]
    fn a_version_1_file_reads_as_one_bucket() {
        // Version 1: the same layout without the bucket count, one output bias.
        let net = small();
        let v2 = to_bytes(&net);
        let mut v1 = v2[..28].to_vec();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&v2[HEADER_SIZE..v2.len() - 4]);
        let crc = crc32fast::hash(&v1);
        v1.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(from_bytes("v1.nnue", &v1).unwrap(), net);
        // A version 1 file with more buckets' bytes is refused by its size.
        let mut long = v1[..v1.len() - 4].to_vec();
        long.extend_from_slice(&[0; 4]);
        let crc = crc32fast::hash(&long);
        long.extend_from_slice(&crc.to_le_bytes());
        let e = from_bytes("v1.nnue", &long).unwrap_err().to_string();
        assert!(e.contains("bytes"), "{e}");
    }

    /// net6, the built-in network before net9a, is a real version 1 file kept in `data/nets/`:
    /// it reads as one bucket, and its version 2 rewrite reads back the same network.
    #[test]
    fn the_kept_version_1_network_reads_and_rewrites_as_version_2() {
        let v1: &[u8] = include_bytes!("../../../data/nets/chariot-net6.nnue");
        assert_eq!(u32::from_le_bytes(v1[8..12].try_into().unwrap()), 1);
        let net = from_bytes("chariot-net6.nnue", v1).unwrap();
        assert_eq!((net.hidden(), net.buckets()), (128, 1));
        let v2 = to_bytes(&net);
        assert_eq!(v2.len(), v1.len() + 4);
        assert_eq!(from_bytes("rewritten", &v2).unwrap(), net);
    }

    /// Any header (checksum mended, so that the header's checks are what is tested) and any
    /// truncation gives a network or an error, never a panic or a huge allocation.
    #[test]
    fn any_header_or_length_is_an_answer_not_a_panic() {
        let bytes = to_bytes(&bucketed(2));
        let mut rng = chariot_rules::random::Rng::seeded(17);
        for _ in 0..2_000 {
            let mut b = bytes.clone();
            let field = 8 + 4 * rng.below(6);
            let value = match rng.below(4) {
                0 => rng.below(4) as u32,
                1 => u32::MAX - rng.below(4) as u32,
                2 => 1 << rng.below(32),
                _ => rng.below(5000) as u32,
            };
            b[field..field + 4].copy_from_slice(&value.to_le_bytes());
            let end = b.len() - 4;
            let crc = crc32fast::hash(&b[..end]);
            b[end..].copy_from_slice(&crc.to_le_bytes());
            if let Ok(net) = from_bytes("n.nnue", &b) {
                // Only a header that says what the file holds reads.
                assert_eq!(net, bucketed(2), "field {field} = {value}");
            }
        }
        for len in 0..bytes.len() {
            assert!(from_bytes("n.nnue", &bytes[..len]).is_err(), "{len} bytes");
        }
    }

    #[test]
    fn a_bucket_count_out_of_range_is_refused() {
        let mut bytes = to_bytes(&bucketed(2));
        bytes[28..32].copy_from_slice(&0u32.to_le_bytes());
        let e = from_bytes("n.nnue", &bytes).unwrap_err().to_string();
        assert!(e.contains("0 output buckets"), "{e}");
    }

    #[test]
    fn damaged_and_foreign_files_are_named_errors() {
        let bytes = to_bytes(&small());
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 100] ^= 1;
        let e = from_bytes("n.nnue", &flipped).unwrap_err().to_string();
        assert!(e.contains("n.nnue") && e.contains("checksum"), "{e}");
        let e = from_bytes("n.nnue", &bytes[..bytes.len() - 10])
            .unwrap_err()
            .to_string();
        assert!(e.contains("bytes"), "{e}");
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(
            from_bytes("n.nnue", &wrong)
                .unwrap_err()
                .to_string()
                .contains("magic")
        );
        let mut version = bytes;
        version[8] = 9;
        assert!(
            from_bytes("n.nnue", &version)
                .unwrap_err()
                .to_string()
                .contains("version")
        );
        assert!(from_bytes("n.nnue", b"").is_err());
    }
}
