//! A minimal PNG writer for the smoke test's screenshot. egui has no image encoder and a
//! screenshot is written once per CI run, so stored (uncompressed) deflate blocks are
//! enough and spare the build an image crate.

use std::io::Write as _;
use std::path::Path;

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// Deflate's stored blocks hold at most this many bytes each.
const MAX_STORED_BLOCK: usize = 0xffff;

const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |c, &b| CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8))
}

fn adler32(bytes: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 is the longest run whose sums cannot overflow a u32 before the modulo.
    for chunk in bytes.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let len = u32::try_from(data.len()).expect("a PNG chunk is shorter than 4 GiB");
    out.extend_from_slice(&len.to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// Encodes 8-bit RGBA pixels, row by row from the top, as a PNG file.
pub fn encode_rgba(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let row = width as usize * 4;
    assert_eq!(rgba.len(), row * height as usize, "RGBA data does not match {width}×{height}");
    // Each scanline starts with its filter type; 0 means none.
    let mut raw = Vec::with_capacity((row + 1) * height as usize);
    for line in rgba.chunks(row.max(1)).take(height as usize) {
        raw.push(0);
        raw.extend_from_slice(line);
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks = raw.chunks(MAX_STORED_BLOCK).collect::<Vec<_>>();
    if blocks.is_empty() {
        zlib.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    zlib.extend_from_slice(&adler32(&raw).to_be_bytes());

    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);

    let mut png = SIGNATURE.to_vec();
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &zlib);
    chunk(&mut png, b"IEND", &[]);
    png
}

/// Writes an egui screenshot to `path` as a PNG.
pub fn save_color_image(path: &Path, image: &egui::ColorImage) -> std::io::Result<()> {
    let [w, h] = image.size;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_srgba_unmultiplied()).collect();
    let too_big = |_| std::io::Error::other("the screenshot is too large for a PNG");
    let png = encode_rgba(u32::try_from(w).map_err(too_big)?, u32::try_from(h).map_err(too_big)?, &rgba);
    let mut file = std::fs::File::create(path)?;
    file.write_all(&png)?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks the chunks of a PNG, checking each CRC; returns (kind, data) pairs.
    fn chunks(png: &[u8]) -> Vec<([u8; 4], Vec<u8>)> {
        assert_eq!(png[..8], SIGNATURE, "PNG signature");
        let mut out = Vec::new();
        let mut at = 8;
        while at < png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            let kind: [u8; 4] = png[at + 4..at + 8].try_into().unwrap();
            let data = png[at + 8..at + 8 + len].to_vec();
            let crc = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
            assert_eq!(crc, crc32(&png[at + 4..at + 8 + len]), "CRC of {}", String::from_utf8_lossy(&kind));
            out.push((kind, data));
            at += 12 + len;
        }
        out
    }

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

    #[test]
    fn png_has_signature_valid_chunks_and_stored_pixels() {
        // Wide enough that the image data needs several stored blocks.
        let (w, h) = (200u32, 120u32);
        let rgba: Vec<u8> = (0..w * h * 4).map(|i| (i % 251) as u8).collect();
        let png = encode_rgba(w, h, &rgba);
        let chunks = chunks(&png);
        let kinds: Vec<&[u8; 4]> = chunks.iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, [b"IHDR", b"IDAT", b"IEND"]);
        let ihdr = &chunks[0].1;
        assert_eq!(ihdr[..8], [0, 0, 0, 200, 0, 0, 0, 120]);
        assert_eq!(ihdr[8..], [8, 6, 0, 0, 0]);

        // Undo the stored blocks and check the scanlines come back unchanged.
        let zlib = &chunks[1].1;
        assert_eq!(zlib[..2], [0x78, 0x01]);
        let mut raw = Vec::new();
        let mut at = 2;
        loop {
            let last = zlib[at] & 1 == 1;
            let len = u16::from_le_bytes([zlib[at + 1], zlib[at + 2]]);
            let nlen = u16::from_le_bytes([zlib[at + 3], zlib[at + 4]]);
            assert_eq!(len, !nlen);
            raw.extend_from_slice(&zlib[at + 5..at + 5 + usize::from(len)]);
            at += 5 + usize::from(len);
            if last {
                break;
            }
        }
        assert_eq!(u32::from_be_bytes(zlib[at..at + 4].try_into().unwrap()), adler32(&raw));
        assert_eq!(raw.len(), (w as usize * 4 + 1) * h as usize);
        let row = w as usize * 4;
        for (y, line) in raw.chunks(row + 1).enumerate() {
            assert_eq!(line[0], 0, "filter byte of row {y}");
            assert_eq!(&line[1..], &rgba[y * row..(y + 1) * row]);
        }
    }
}
