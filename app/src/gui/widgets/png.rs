//! The smoke test's screenshot, written as a PNG with the `png` crate (which eframe already
//! builds for its window icon).

use std::io::{BufWriter, Write as _};
use std::path::Path;

/// Encodes 8-bit RGBA pixels, row by row from the top, as a PNG.
fn write_rgba(out: impl std::io::Write, width: u32, height: u32, rgba: &[u8]) -> std::io::Result<()> {
    let mut encoder = ::png::Encoder::new(out, width, height);
    encoder.set_color(::png::ColorType::Rgba);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

/// Writes an egui screenshot to `path` as a PNG.
pub fn save_color_image(path: &Path, image: &egui::ColorImage) -> std::io::Result<()> {
    let [w, h] = image.size;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_srgba_unmultiplied()).collect();
    let too_big = |_| std::io::Error::other("the screenshot is too large for a PNG");
    let mut file = BufWriter::new(std::fs::File::create(path)?);
    write_rgba(&mut file, u32::try_from(w).map_err(too_big)?, u32::try_from(h).map_err(too_big)?, &rgba)?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes a PNG file: width, height, colour type, bit depth and the pixels.
    fn decode(bytes: &[u8]) -> (u32, u32, ::png::ColorType, ::png::BitDepth, Vec<u8>) {
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a size that fits")];
        let info = reader.next_frame(&mut pixels).expect("the image data");
        pixels.truncate(info.buffer_size());
        (info.width, info.height, info.color_type, info.bit_depth, pixels)
    }

    #[test]
    fn png_has_signature_and_decodes_to_the_same_pixels() {
        let (w, h) = (200u32, 120u32);
        let rgba: Vec<u8> = (0..w * h * 4).map(|i| (i % 251) as u8).collect();
        let mut png = Vec::new();
        write_rgba(&mut png, w, h, &rgba).unwrap();
        assert_eq!(png[..8], [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'], "PNG signature");
        assert_eq!(decode(&png), (w, h, ::png::ColorType::Rgba, ::png::BitDepth::Eight, rgba));
    }

    #[test]
    fn a_saved_screenshot_decodes_back_to_its_pixels() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        let pixels: Vec<egui::Color32> =
            (0..7 * 5).map(|i| egui::Color32::from_rgba_unmultiplied((i * 7) as u8, (i * 13) as u8, (255 - i) as u8, 255)).collect();
        let image = egui::ColorImage::new([7, 5], pixels.clone());
        save_color_image(&path, &image).unwrap();
        let (w, h, color, depth, decoded) = decode(&std::fs::read(&path).unwrap());
        assert_eq!((w, h, color, depth), (7, 5, ::png::ColorType::Rgba, ::png::BitDepth::Eight));
        let want: Vec<u8> = pixels.iter().flat_map(|c| c.to_srgba_unmultiplied()).collect();
        assert_eq!(decoded, want);
    }
}
