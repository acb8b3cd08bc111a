//! The network file (`.nnue`): a header that names the architecture and the quantisation, the
//! integer weights, and a CRC-32 of everything before it (`docs/formats/nnue.md`). Writer and
//! reader live here together and are round-trip tested; a file is checked whole when it is read,
//! so a damaged or foreign file is a typed error and never a wrong evaluation.
//!
//! The version picks the architecture: 1 and 2 are the piece-square network (1 without output
//! buckets), 3 the king-bucketed network. Every version is read; the writer writes a
//! piece-square network as version 2, byte for byte as before version 3 existed, and a
//! king-bucketed one as version 3.

use std::path::Path;

use super::features::INPUTS as PSQ_INPUTS;
use super::king::{
    self, HIDDEN_STEP, HIDDEN1, HIDDEN2, KingNet, KingParts, MAX_HIDDEN, QH, QO, QW,
};
use super::king_features::{BUCKETS as KING_BUCKETS, INPUTS as KING_INPUTS};
use super::network::Network;
use super::output::MAX_BUCKETS;
use super::psq::{PsqNet, QA, QB};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"CHRTNNUE";
/// The version a piece-square network is written as (version 1 had no bucket count).
pub const PSQ_VERSION: u32 = 2;
/// The version of the king-bucketed network.
pub const KING_VERSION: u32 = 3;
/// Bytes of a version 2 header (version 1's has no bucket count and is 4 bytes shorter).
pub const PSQ_HEADER_SIZE: usize = 32;
/// Bytes of a version 3 header.
pub const KING_HEADER_SIZE: usize = 52;
/// The architecture number a version 3 header gives for the king-bucketed network.
pub const KING_ARCHITECTURE: u32 = 1;

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
    match net {
        Network::PieceSquare(n) => psq_bytes(n),
        Network::KingBucketed(n) => king_bytes(n),
    }
}

/// Appends the CRC-32 of `out` to it.
fn seal(mut out: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

fn psq_bytes(net: &PsqNet) -> Vec<u8> {
    let (hidden, buckets) = (net.hidden(), net.buckets());
    let weights = PSQ_INPUTS * hidden + hidden + 2 * hidden * buckets;
    let mut out = Vec::with_capacity(PSQ_HEADER_SIZE + 2 * weights + 4 * buckets + 4);
    out.extend_from_slice(&MAGIC);
    for v in [
        PSQ_VERSION,
        PSQ_INPUTS as u32,
        hidden as u32,
        QA as u32,
        QB as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(buckets as u32).to_le_bytes());
    let (w1, b1, w2, b2) = net.parts();
    for w in w1.iter().chain(b1).chain(w2) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in b2 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    seal(out)
}

/// The byte sizes of a version 3 body with first layer `h` and `b` buckets.
fn king_body_size(h: usize, b: usize) -> usize {
    2 * (KING_INPUTS * h + h)
        + b * (HIDDEN1 * h + 4 * HIDDEN1)
        + b * (HIDDEN2 * HIDDEN1 + 4 * HIDDEN2)
        + b * (2 * HIDDEN2 + 4)
}

fn king_bytes(net: &KingNet) -> Vec<u8> {
    let (h, b) = (net.hidden(), net.buckets());
    let mut out = Vec::with_capacity(KING_HEADER_SIZE + king_body_size(h, b) + 4);
    out.extend_from_slice(&MAGIC);
    for v in [
        KING_VERSION,
        KING_ARCHITECTURE,
        KING_INPUTS as u32,
        h as u32,
        HIDDEN1 as u32,
        HIDDEN2 as u32,
        b as u32,
        king::QA as u32,
        QH as u32,
        QW as u32,
        QO as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let p = net.parts();
    for w in p.w1.iter().chain(&p.b1) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend(p.w2.iter().map(|&w| w as u8));
    for v in &p.b2 {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend(p.w3.iter().map(|&w| w as u8));
    for v in &p.b3 {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for w in &p.w4 {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for v in &p.b4 {
        out.extend_from_slice(&v.to_le_bytes());
    }
    seal(out)
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
    let version = u32_at(b, 8);
    match version {
        1 | 2 => psq_from_bytes(b, version).map(Network::from).map_err(bad),
        3 => king_from_bytes(b).map(Network::from).map_err(bad),
        _ => Err(bad(format!(
            "format version {version}, this build reads 1 to {KING_VERSION}"
        ))),
    }
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// Checks the file's length against the header's `expected` and its checksum.
fn check_size_and_sum(b: &[u8], expected: usize) -> Result<(), String> {
    if b.len() != expected {
        return Err(format!(
            "{} bytes, the header's architecture needs {expected}",
            b.len()
        ));
    }
    if crc32fast::hash(&b[..expected - 4]) != u32_at(b, expected - 4) {
        return Err("checksum mismatch (the file is damaged)".into());
    }
    Ok(())
}

fn i16s(b: &[u8]) -> Vec<i16> {
    b.chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A piece-square network of version 1 or 2 (the magic and length already checked).
fn psq_from_bytes(b: &[u8], version: u32) -> Result<PsqNet, String> {
    let (inputs, hidden, qa, qb) = (u32_at(b, 12), u32_at(b, 16), u32_at(b, 20), u32_at(b, 24));
    let (header, buckets) = if version == 1 {
        (28, 1)
    } else {
        (PSQ_HEADER_SIZE, u32_at(b, 28))
    };
    if inputs as usize != PSQ_INPUTS {
        return Err(format!(
            "{inputs} inputs, this build's features are {PSQ_INPUTS}"
        ));
    }
    if !(1..=4096).contains(&hidden) {
        return Err(format!("{hidden} hidden neurons (1 to 4096 are read)"));
    }
    if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
        return Err(format!(
            "{buckets} output buckets (1 to {MAX_BUCKETS} are read)"
        ));
    }
    if (qa, qb) != (QA as u32, QB as u32) {
        return Err(format!("quantisation {qa}/{qb}, this build uses {QA}/{QB}"));
    }
    let (hidden, buckets) = (hidden as usize, buckets as usize);
    let weights = PSQ_INPUTS * hidden + hidden + 2 * hidden * buckets;
    let expected = header + 2 * weights + 4 * buckets + 4;
    check_size_and_sum(b, expected)?;
    let i16s = i16s(&b[header..header + 2 * weights]);
    let (w1, rest) = i16s.split_at(PSQ_INPUTS * hidden);
    let (b1, w2) = rest.split_at(hidden);
    let b2 = i32s(&b[header + 2 * weights..expected - 4]);
    Ok(PsqNet::from_parts(
        w1.to_vec(),
        b1.to_vec(),
        w2.to_vec(),
        b2,
    ))
}

/// A king-bucketed network of version 3 (the magic checked).
fn king_from_bytes(b: &[u8]) -> Result<KingNet, String> {
    if b.len() < KING_HEADER_SIZE + 4 {
        return Err(format!(
            "{} bytes is too short for a version 3 network",
            b.len()
        ));
    }
    let field = |i: usize| u32_at(b, 12 + 4 * i);
    let (arch, inputs, hidden, h1, h2, buckets) =
        (field(0), field(1), field(2), field(3), field(4), field(5));
    let (qa, qh, qw, qo) = (field(6), field(7), field(8), field(9));
    if arch != KING_ARCHITECTURE {
        return Err(format!(
            "architecture {arch} of version 3, this build reads {KING_ARCHITECTURE} \
             (king-bucketed)"
        ));
    }
    if inputs as usize != KING_INPUTS {
        return Err(format!(
            "{inputs} inputs, this build's king-bucketed features are {KING_INPUTS} \
             ({KING_BUCKETS} buckets of the general)"
        ));
    }
    let step = HIDDEN_STEP as u32;
    if !(step..=MAX_HIDDEN as u32).contains(&hidden) || hidden % step != 0 {
        return Err(format!(
            "{hidden} first-layer neurons (multiples of {step} up to {MAX_HIDDEN} are read)"
        ));
    }
    if (h1, h2) != (HIDDEN1 as u32, HIDDEN2 as u32) {
        return Err(format!(
            "hidden layers of {h1} and {h2}, this build's are {HIDDEN1} and {HIDDEN2}"
        ));
    }
    if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
        return Err(format!(
            "{buckets} output buckets (1 to {MAX_BUCKETS} are read)"
        ));
    }
    if (qa, qh, qw, qo) != (king::QA as u32, QH as u32, QW as u32, QO as u32) {
        return Err(format!(
            "quantisation {qa}/{qh}/{qw}/{qo}, this build uses {}/{QH}/{QW}/{QO}",
            king::QA
        ));
    }
    let (h, nb) = (hidden as usize, buckets as usize);
    let expected = KING_HEADER_SIZE + king_body_size(h, nb) + 4;
    check_size_and_sum(b, expected)?;
    let mut at = KING_HEADER_SIZE;
    let mut take = |n: usize| {
        let s = &b[at..at + n];
        at += n;
        s
    };
    let w1 = i16s(take(2 * KING_INPUTS * h));
    let b1 = i16s(take(2 * h));
    let w2 = take(nb * HIDDEN1 * h).iter().map(|&x| x as i8).collect();
    let b2 = i32s(take(4 * nb * HIDDEN1));
    let w3 = take(nb * HIDDEN2 * HIDDEN1)
        .iter()
        .map(|&x| x as i8)
        .collect();
    let b3 = i32s(take(4 * nb * HIDDEN2));
    let w4 = i16s(take(2 * nb * HIDDEN2));
    let b4 = i32s(take(4 * nb));
    Ok(KingNet::from_parts(KingParts {
        w1,
        b1,
        w2,
        b2,
        w3,
        b3,
        w4,
        b4,
    }))
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
        let w1 = (0..PSQ_INPUTS * hidden)
            .map(|i| (i % 61) as i16 - 30)
            .collect();
        let b1 = (0..hidden).map(|i| i as i16 * 3).collect();
        let w2 = (0..2 * hidden * buckets).map(|i| 20 - i as i16).collect();
        PsqNet::from_parts(
            w1,
            b1,
            w2,
            (0..buckets as i32).map(|b| b * 9 - 77).collect(),
        )
        .into()
    }

    fn king(hidden: usize, buckets: usize) -> Network {
        let mut rng = chariot_rules::random::Rng::seeded(hidden as u64 * 31 + buckets as u64);
        crate::nnue::king::random_net(&mut rng, hidden, buckets).into()
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
        v1.extend_from_slice(&v2[PSQ_HEADER_SIZE..v2.len() - 4]);
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
        flipped[PSQ_HEADER_SIZE + 100] ^= 1;
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

    #[test]
    fn a_king_bucketed_network_round_trips_as_version_3() {
        for (hidden, buckets) in [(32, 1), (64, 3), (32, MAX_BUCKETS)] {
            let net = king(hidden, buckets);
            let bytes = to_bytes(&net);
            assert_eq!(u32_at(&bytes, 8), KING_VERSION);
            assert_eq!(
                bytes.len(),
                KING_HEADER_SIZE + king_body_size(hidden, buckets) + 4
            );
            let back = from_bytes("mem", &bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.architecture(), crate::nnue::Architecture::KingBucketed);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("k.nnue");
            write(&path, &net).unwrap();
            assert_eq!(read(&path).unwrap(), net);
        }
    }

    /// The built-in network (version 2) reads and writes back byte for byte: version 3 changed
    /// nothing for the piece-square network's files.
    #[test]
    fn the_built_in_network_writes_back_to_the_same_bytes() {
        let bytes = crate::nnue::builtin::BYTES;
        let net = from_bytes("net10a", bytes).unwrap();
        assert_eq!(net.architecture(), crate::nnue::Architecture::PieceSquare);
        assert_eq!(to_bytes(&net), bytes);
    }

    /// Any version 3 header field (checksum mended) and any truncation is an answer, never a
    /// panic; only the header that says what the file holds reads.
    #[test]
    fn any_version_3_header_or_length_is_an_answer_not_a_panic() {
        let net = king(32, 2);
        let bytes = to_bytes(&net);
        let mut rng = chariot_rules::random::Rng::seeded(23);
        for _ in 0..2_000 {
            let mut b = bytes.clone();
            let field = 12 + 4 * rng.below(10);
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
            if let Ok(read) = from_bytes("k.nnue", &b) {
                assert_eq!(read, net, "field {field} = {value}");
            }
        }
        for len in (0..bytes.len())
            .step_by(97)
            .chain(bytes.len() - 8..bytes.len())
        {
            assert!(from_bytes("k.nnue", &bytes[..len]).is_err(), "{len} bytes");
        }
    }

    #[test]
    fn version_3_headers_name_what_this_build_does_not_read() {
        let bytes = to_bytes(&king(32, 1));
        let mended = |field: usize, value: u32| {
            let mut b = bytes.clone();
            b[field..field + 4].copy_from_slice(&value.to_le_bytes());
            let end = b.len() - 4;
            let crc = crc32fast::hash(&b[..end]);
            b[end..].copy_from_slice(&crc.to_le_bytes());
            from_bytes("k.nnue", &b).unwrap_err().to_string()
        };
        for (field, value, words) in [
            (12, 2, "architecture 2"),
            (16, 1260, "1260 inputs"),
            (20, 48, "48 first-layer neurons"),
            (24, 8, "hidden layers of 8"),
            (32, 0, "0 output buckets"),
            (36, 127, "quantisation 127"),
            (40, 255, "quantisation 255/255"),
        ] {
            let e = mended(field, value);
            assert!(e.contains("k.nnue") && e.contains(words), "{e}");
        }
        let mut version = bytes.clone();
        version[8] = 4;
        let e = from_bytes("k.nnue", &version).unwrap_err().to_string();
        assert!(e.contains("version 4") && e.contains("1 to 3"), "{e}");
    }
}
