//! Encodings: Shift-JIS or UTF-8 in, either out.

/// Decodes UTF-8 (with or without BOM) or, failing that, Shift-JIS.
/// Returns the text and whether it was Shift-JIS.
pub(crate) fn decode(bytes: &[u8]) -> (String, bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.replace("\r\n", "\n").replace('\r', "\n"), false),
        Err(_) => {
            let (s, _, _) = encoding_rs::SHIFT_JIS.decode(bytes);
            (s.replace("\r\n", "\n").replace('\r', "\n"), true)
        }
    }
}

/// Encodes as Shift-JIS with CRLF line ends.
///
/// # Errors
/// A character Shift-JIS cannot encode.
pub(crate) fn encode_sjis(text: &str) -> Result<Vec<u8>, String> {
    let crlf = text.replace('\n', "\r\n");
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&crlf);
    if unmappable {
        return Err("the record has characters Shift-JIS cannot encode (write .kifu)".into());
    }
    Ok(bytes.into_owned())
}
