//! The header of a table file: what a table says about itself ([`Header`], [`HalfStats`] per side
//! to move) and its bytes (offsets in `docs/formats/egtb.md`). Reading checks every field
//! against what the rest of the file and the signature's index allow, so that the reader can
//! trust the sizes it allocates; writing always writes version 3, whatever version a header was
//! read from.

use super::{
    FileError, HEADER_LEN, HEADER_LEN_V2, MAGIC, MAX_BLOCK_ENTRIES, MAX_BLOCKS, VERSION,
    VERSION_PLAIN, VERSION_RULES,
};
use crate::egtb::index::{self, Indexer};
use crate::egtb::signature::Signature;
use crate::egtb::{Coding, Metric, Value, ValueError};

/// Counts for one half of a table (one side to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HalfStats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Positions won by the perpetual-check rule (not counted in `wins`; version 2).
    pub rule_wins: u64,
    /// Positions lost by the perpetual-check rule (not counted in `losses`; version 2).
    pub rule_losses: u64,
    /// Indices that are no legal position (shared squares, generals facing, side not to move in check).
    pub unused: u64,
    /// The longest distance to mate in plies (won or lost), 0 when there is none.
    pub max_dtm: u32,
    /// An index whose distance is `max_dtm` (meaningful when `max_dtm > 0`).
    pub max_dtm_index: u64,
}

/// What a table's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version of the file read ([`VERSION`] for a header to be written: the writer
    /// writes nothing else).
    pub version: u16,
    /// The table's material.
    pub signature: Signature,
    /// The key scheme ([`KEY_SCHEME`](super::KEY_SCHEME)).
    pub key_scheme: u8,
    /// Bytes per entry: 1 or 2.
    pub value_width: u8,
    /// Flags: [`FLAG_RULE_JUDGED`](super::FLAG_RULE_JUDGED),
    /// [`FLAG_RULE_DECIDES`](super::FLAG_RULE_DECIDES).
    pub flags: u8,
    /// How codes map to values, the metric included (no rule values in version 1).
    pub coding: Coding,
    /// Entries per half.
    pub entries_per_half: u64,
    /// Entries per block (the last block may be shorter).
    pub block_entries: u32,
    /// Number of blocks.
    pub blocks: u32,
    /// Statistics, Red (strong side) to move first.
    pub stats: [HalfStats; 2],
}

impl Header {
    /// The number of entries in the file (both halves).
    #[must_use]
    pub fn entries(&self) -> u64 {
        2 * self.entries_per_half
    }

    /// The format version of the file read (see [`Header::version`]'s field).
    #[must_use]
    pub fn version(&self) -> u16 {
        self.version
    }

    /// The header's length in bytes (it depends on the version).
    #[must_use]
    pub fn header_len(&self) -> usize {
        if self.version == VERSION_PLAIN {
            HEADER_LEN
        } else {
            HEADER_LEN_V2
        }
    }

    /// The value of `code` in this table.
    ///
    /// # Errors
    /// [`ValueError`] for a code that is no value.
    pub fn decode(&self, code: u16) -> Result<Value, ValueError> {
        self.coding.decode(code)
    }

    /// The number of entries in block `b`.
    #[must_use]
    pub fn entries_in_block(&self, b: u32) -> usize {
        let start = u64::from(b) * u64::from(self.block_entries);
        (self.entries() - start).min(u64::from(self.block_entries)) as usize
    }

    /// The header's bytes in version 3 (whatever version it was read from), with the block
    /// index's checksum and length.
    pub(super) fn to_bytes(&self, index_crc: u32, index_len: u64) -> Vec<u8> {
        let len = HEADER_LEN_V2;
        let mut h = vec![0u8; len];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&(len as u16).to_le_bytes());
        h[12] = self.key_scheme;
        h[13] = self.coding.metric.code();
        h[14] = self.value_width;
        h[15] = self.flags;
        let name = self.signature.to_string();
        h[16..16 + name.len()].copy_from_slice(name.as_bytes());
        h[48..56].copy_from_slice(&self.entries_per_half.to_le_bytes());
        h[56..60].copy_from_slice(&self.block_entries.to_le_bytes());
        h[60..64].copy_from_slice(&self.blocks.to_le_bytes());
        for (i, s) in self.stats.iter().enumerate() {
            let o = 64 + 48 * i;
            h[o..o + 8].copy_from_slice(&s.wins.to_le_bytes());
            h[o + 8..o + 16].copy_from_slice(&s.draws.to_le_bytes());
            h[o + 16..o + 24].copy_from_slice(&s.losses.to_le_bytes());
            h[o + 24..o + 32].copy_from_slice(&s.unused.to_le_bytes());
            h[o + 32..o + 36].copy_from_slice(&s.max_dtm.to_le_bytes());
            h[o + 40..o + 48].copy_from_slice(&s.max_dtm_index.to_le_bytes());
        }
        h[160..164].copy_from_slice(&index_crc.to_le_bytes());
        if self.coding.has_rule_values() {
            h[164..166].copy_from_slice(&self.coding.rule_base.to_le_bytes());
            h[166..168].copy_from_slice(&self.coding.rule_stride.to_le_bytes());
            h[168..170].copy_from_slice(&self.coding.rule_stages.to_le_bytes());
            h[208..224].copy_from_slice(&self.coding.chase_stages[0].to_le_bytes());
            h[224..240].copy_from_slice(&self.coding.chase_stages[1].to_le_bytes());
            for (i, s) in self.stats.iter().enumerate() {
                let o = 176 + 16 * i;
                h[o..o + 8].copy_from_slice(&s.rule_wins.to_le_bytes());
                h[o + 8..o + 16].copy_from_slice(&s.rule_losses.to_le_bytes());
            }
        }
        h[240..248].copy_from_slice(&index_len.to_le_bytes());
        let crc = crc32fast::hash(&h[..len - 4]);
        h[len - 4..].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// Reads and checks a header; returns it with the block index's checksum and (version 3)
    /// its length in bytes.
    pub(super) fn from_bytes(b: &[u8]) -> Result<(Header, u32, u64), FileError> {
        if b.len() >= 8 && b[..8] != MAGIC {
            return Err(FileError::BadMagic);
        }
        if b.len() < 10 {
            return Err(FileError::Truncated {
                len: b.len() as u64,
                need: HEADER_LEN as u64,
            });
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        let len = match version {
            VERSION_PLAIN => HEADER_LEN,
            VERSION_RULES | VERSION => HEADER_LEN_V2,
            v => return Err(FileError::UnsupportedVersion(v)),
        };
        if b.len() < len {
            return Err(FileError::Truncated {
                len: b.len() as u64,
                need: len as u64,
            });
        }
        let h = &b[..len];
        let crc = u32::from_le_bytes(h[len - 4..].try_into().unwrap_or_default());
        if crc32fast::hash(&h[..len - 4]) != crc {
            return Err(FileError::HeaderChecksum);
        }
        let bad = |what: String| Err(FileError::BadHeader(what));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap_or_default());
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().unwrap_or_default());
        let u16_at = |o: usize| u16::from_le_bytes([h[o], h[o + 1]]);
        if usize::from(u16_at(10)) != len {
            return bad("header length".into());
        }
        let name_bytes: Vec<u8> = h[16..48].iter().copied().take_while(|&c| c != 0).collect();
        let name = String::from_utf8_lossy(&name_bytes).into_owned();
        let signature: Signature = match name.parse() {
            Ok(s) => s,
            Err(e) => return bad(format!("signature: {e}")),
        };
        if signature.to_string() != name {
            return bad(format!("signature {name:?} is not in canonical form"));
        }
        let Some(metric) = Metric::from_code(h[13]) else {
            return bad(format!("unknown metric {}", h[13]));
        };
        // Rule values: always in version 2, in version 3 when it gives them stages.
        let rules = version == VERSION_RULES || (version == VERSION && u16_at(168) != 0);
        let header = Header {
            version,
            signature,
            key_scheme: h[12],
            value_width: h[14],
            flags: h[15],
            coding: if rules {
                Coding {
                    metric,
                    rule_base: u16_at(164),
                    rule_stride: u16_at(166),
                    rule_stages: u16_at(168),
                    chase_stages: [
                        u128::from_le_bytes(h[208..224].try_into().expect("16 bytes")),
                        u128::from_le_bytes(h[224..240].try_into().expect("16 bytes")),
                    ],
                }
            } else {
                Coding::plain(metric)
            },
            entries_per_half: u64_at(48),
            block_entries: u32_at(56),
            blocks: u32_at(60),
            stats: [0, 1].map(|i| {
                let o = 64 + 48 * i;
                HalfStats {
                    wins: u64_at(o),
                    draws: u64_at(o + 8),
                    losses: u64_at(o + 16),
                    rule_wins: if rules { u64_at(176 + 16 * i) } else { 0 },
                    rule_losses: if rules { u64_at(184 + 16 * i) } else { 0 },
                    unused: u64_at(o + 24),
                    max_dtm: u32_at(o + 32),
                    max_dtm_index: u64_at(o + 40),
                }
            }),
        };
        if !index::is_known_scheme(header.key_scheme) {
            return bad(format!("unknown key scheme {}", header.key_scheme));
        }
        if version == VERSION && !rules {
            // No rule values: the coding's fields and the rule counts are zero.
            let zero = h[164..168].iter().chain(&h[176..208]).all(|&x| x == 0);
            if !zero {
                return bad("rule coding without rule stages".into());
            }
        }
        if rules {
            let c = header.coding;
            let top = u64::from(c.rule_base) + u64::from(c.rule_stride) * u64::from(c.rule_stages);
            if c.rule_base < 3
                || c.rule_stride < 2
                || c.rule_stride % 2 == 1
                || c.rule_stages == 0
                || top > 1 << 16
            {
                return bad(format!(
                    "rule coding (base {}, stride {}, stages {})",
                    c.rule_base, c.rule_stride, c.rule_stages
                ));
            }
        }
        let c = header.coding;
        for (side, bits) in c.chase_stages.iter().enumerate() {
            let odd = 0xAAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAAu128;
            let stages = u32::from(c.rule_stages);
            let beyond = if stages >= 128 { 0 } else { !0u128 << stages };
            if bits & !odd != 0 || bits & beyond != 0 {
                return bad(format!(
                    "chase stages {bits:#x} of side {side} (only odd stages below {stages})"
                ));
            }
        }
        if !matches!(header.value_width, 1 | 2) {
            return bad(format!("value width {}", header.value_width));
        }
        let size = Indexer::with_scheme(signature, header.key_scheme)
            .map_err(|e| FileError::BadHeader(e.to_string()))?
            .size();
        if header.entries_per_half != size {
            return bad(format!(
                "{} entries per half, the index of {signature} has {size}",
                header.entries_per_half
            ));
        }
        if header.block_entries == 0 || header.block_entries > MAX_BLOCK_ENTRIES {
            return bad(format!(
                "{} entries per block (1 to {MAX_BLOCK_ENTRIES} are read)",
                header.block_entries
            ));
        }
        let blocks = header.entries().div_ceil(u64::from(header.block_entries));
        if u64::from(header.blocks) != blocks {
            return bad(format!("{} blocks, {blocks} expected", header.blocks));
        }
        if header.blocks > MAX_BLOCKS {
            return bad(format!(
                "{} blocks (at most {MAX_BLOCKS} are read)",
                header.blocks
            ));
        }
        let index_len = if version == VERSION { u64_at(240) } else { 0 };
        Ok((header, u32_at(160), index_len))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{bytes_of, bytes_with, sample, sample_v2};
    use super::super::{TableFile, write_table};
    use super::*;
    use crate::egtb::{Metric, Value};
    use chariot_rules::Color;

    #[test]
    fn the_metric_round_trips_and_an_unknown_one_is_refused() {
        let (sig, codes) = sample();
        for metric in Metric::ALL {
            let t = TableFile::from_bytes(bytes_with(sig, &codes, Coding::plain(metric))).unwrap();
            assert_eq!(t.header().coding.metric, metric);
            assert_eq!(t.header().version(), VERSION);
            // Code 4: a loss in 2 plies to mate, a loss in 1 ply to conversion.
            let v = t.header().decode(4).unwrap();
            assert_eq!(
                v,
                match metric {
                    Metric::Dtm => Value::Loss(2),
                    Metric::Dtc => Value::Loss(1),
                }
            );
        }
        let mut b = bytes_of(sig, &codes);
        b[13] = 3;
        let crc = crc32fast::hash(&b[..HEADER_LEN_V2 - 4]);
        b[HEADER_LEN_V2 - 4..HEADER_LEN_V2].copy_from_slice(&crc.to_le_bytes());
        let err = TableFile::from_bytes(b).unwrap_err();
        assert!(err.to_string().contains("unknown metric 3"), "{err}");
    }

    #[test]
    fn chase_stages_round_trip_and_are_checked() {
        let (sig, codes, mut coding) = sample_v2();
        // Three stages: stage 1 is the only core; a chase core in the weak side's game.
        coding.chase_stages = [0, 1 << 1];
        let t = TableFile::from_bytes(bytes_with(sig, &codes, coding)).unwrap();
        assert_eq!(t.header().coding, coding);
        assert!(t.header().coding.is_chase_core(Color::Black, 1));
        assert!(!t.header().coding.is_chase_core(Color::Red, 1));
        // An even stage, or one past the last, cannot be a core.
        for bad in [[1u128 << 2, 0], [0, 1 << 3]] {
            let mut bytes = bytes_with(sig, &codes, coding);
            bytes[208..224].copy_from_slice(&bad[0].to_le_bytes());
            bytes[224..240].copy_from_slice(&bad[1].to_le_bytes());
            let crc = crc32fast::hash(&bytes[..252]);
            bytes[252..256].copy_from_slice(&crc.to_le_bytes());
            let err = TableFile::from_bytes(bytes).err().unwrap();
            assert!(err.to_string().contains("chase stages"), "{err}");
        }
    }

    /// A header whose blocks a reader would have to allocate beyond the bounds is refused
    /// before anything is allocated (the checksum mended: the bounds are what is tested).
    #[test]
    fn a_header_asking_too_large_or_too_many_blocks_is_refused() {
        let (sig, codes) = sample();
        let good = bytes_of(sig, &codes);
        let with = |name: &str, block_entries: u32| {
            let sig: Signature = name.parse().unwrap();
            let entries = 2 * Indexer::new(sig).unwrap().size();
            let blocks = entries.div_ceil(u64::from(block_entries)) as u32;
            let mut b = good.clone();
            b[16..48].fill(0);
            b[16..16 + name.len()].copy_from_slice(name.as_bytes());
            b[48..56].copy_from_slice(&(entries / 2).to_le_bytes());
            b[56..60].copy_from_slice(&block_entries.to_le_bytes());
            b[60..64].copy_from_slice(&blocks.to_le_bytes());
            let head = HEADER_LEN_V2;
            let crc = crc32fast::hash(&b[..head - 4]);
            b[head - 4..head].copy_from_slice(&crc.to_le_bytes());
            TableFile::from_bytes(b).err().map(|e| e.to_string())
        };
        let e = with("KRK", MAX_BLOCK_ENTRIES + 1).unwrap();
        assert!(e.contains("entries per block"), "{e}");
        // 613 M entries in blocks of 32: 19 M blocks.
        let e = with("KRABKRAB", 32).unwrap();
        assert!(e.contains("blocks (at most"), "{e}");
        // At the bound the file reads (KRK's 8,100 entries are one block either way).
        assert_eq!(with("KRK", MAX_BLOCK_ENTRIES), None);
        // The writer refuses to write what the readers refuse.
        let dir = tempfile::tempdir().unwrap();
        let mut header = TableFile::from_bytes(good).unwrap().header().clone();
        header.block_entries = MAX_BLOCK_ENTRIES + 1;
        let refused = write_table(&dir.path().join("KRK.egtb"), &header, &[]);
        assert!(
            matches!(refused, Err(FileError::BadHeader(_))),
            "{refused:?}"
        );
        assert!(!dir.path().join("KRK.egtb").exists());
    }
}
