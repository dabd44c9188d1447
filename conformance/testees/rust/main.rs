//! The Rust conformance testee (conformance/testee_protocol.md): length-prefixed JSON requests on
//! stdin, answers on stdout. It reads the binary models, JSON and value descriptions and writes
//! the binary models, JSON, the text form and value descriptions, verifies, and feeds protocol
//! streams to the package's receiver, with the `fbec --rust --final --json --proto` code of every
//! conformance schema (gen/ and registry.rs, written by build.py).

mod describe;
mod gen;
mod registry;

use fbe::json::JsonStruct;
use fbe::text::Text;
use fbe::Limits;
use serde_json::value::RawValue;
use serde_json::Value as J;
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The allocator, counting the bytes in use and their peak (`measure`).
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is System's.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What every generated struct of the conformance schemas gives the testee.
pub trait Testable: JsonStruct + Text + describe::Describe {}

impl<T: JsonStruct + Text + describe::Describe> Testable for T {}

/// Something done with the generated type of a request (registry::with_type chooses it).
pub trait Visit {
    fn visit<T: Testable>(self) -> Answer;
}

/// An answer: its member (`result`, `parse_error`...) and its JSON value.
pub struct Answer(&'static str, String);

fn text(member: &'static str, s: &str) -> Answer {
    Answer(member, serde_json::to_string(s).unwrap_or_default())
}

fn base64(member: &'static str, b: &[u8]) -> Answer {
    let mut out = b"\"".to_vec();
    fbe::json::append_base64(&mut out, b);
    out.push(b'"');
    Answer(member, String::from_utf8(out).unwrap_or_default())
}

/// The answer to a value description the testee could not read (describe.rs's error, "path: message"):
/// one holding what the runtime's types cannot (a decimal beyond 96 bits) is refused as a writer
/// refuses it, naming the field; any other is the testee's own failure.
fn unheld(req: &Request<'_>, e: &str) -> Answer {
    let (path, message) = match e.split_once(": ") {
        Some((path, message)) if path.starts_with('.') || path.starts_with('[') => (path, message),
        _ => ("", e),
    };
    let at = format!("({}.{}{path})", req.package, req.type_);
    match message.strip_prefix(describe::UNHELD) {
        Some(refusal) => text("serialize_error", &format!("{refusal} {at}")),
        None => text(
            "serialize_error",
            &format!("UNEXPECTED value description: {message} {at}"),
        ),
    }
}

/// A request's input: its format and payload (a JSON value, kept as its text).
struct Input<'a> {
    format: String,
    payload: &'a RawValue,
}

/// A request (conformance/testee_protocol.md).
struct Request<'a> {
    quit: bool,
    package: String,
    type_: String,
    input: Option<Input<'a>>,
    output: String,
    limits: HashMap<String, usize>,
    measure: bool,
}

type Members<'a> = HashMap<String, &'a RawValue>;

fn parse_request(text: &str) -> Result<Request<'_>, String> {
    let m: Members<'_> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let get = |name: &str| -> Result<Option<J>, String> {
        m.get(name)
            .map(|raw| serde_json::from_str(raw.get()).map_err(|e| e.to_string()))
            .transpose()
    };
    let string = |name: &str| -> Result<String, String> {
        Ok(get(name)?
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default())
    };
    let input = match m.get("input") {
        None => None,
        Some(raw) => {
            let i: Members<'_> = serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
            let format = i
                .get("format")
                .and_then(|f| serde_json::from_str::<String>(f.get()).ok())
                .unwrap_or_default();
            let payload = *i.get("payload").ok_or("request: no payload")?;
            Some(Input { format, payload })
        }
    };
    let limits = match get("limits")? {
        Some(J::Object(l)) => l
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.as_u64()? as usize)))
            .collect(),
        _ => HashMap::new(),
    };
    Ok(Request {
        quit: get("quit")?.and_then(|v| v.as_bool()).unwrap_or(false),
        package: string("package")?,
        type_: string("type")?,
        input,
        output: string("output")?,
        limits,
        measure: get("measure")?.and_then(|v| v.as_bool()).unwrap_or(false),
    })
}

fn limits_of(m: &HashMap<String, usize>) -> Limits {
    let mut l = Limits::default();
    for (k, &v) in m {
        match k.as_str() {
            "max_depth" => l.max_depth = v,
            "budget_factor" => l.budget_factor = v,
            "budget_slack" => l.budget_slack = v,
            "max_frame_size" => l.max_frame_size = v,
            _ => {}
        }
    }
    l
}

/// A request's payload string: its bytes, `\udcXY` the raw bytes they stand for.
fn payload_bytes(payload: &RawValue) -> Result<Vec<u8>, String> {
    fbe::json::unquote(payload.get()).map_err(|e| format!("payload: {e}"))
}

/// A binary payload: the Base64 text of the payload string.
fn payload_binary(payload: &RawValue) -> Result<Vec<u8>, String> {
    let text = payload_bytes(payload)?;
    fbe::json::decode_base64(&text).ok_or_else(|| "payload: invalid base64".to_owned())
}

/// Answers a request for the type T.
struct Typed<'r, 'a> {
    req: &'r Request<'a>,
    input: &'r Input<'a>,
}

impl Visit for Typed<'_, '_> {
    fn visit<T: Testable>(self) -> Answer {
        let (req, input) = (self.req, self.input);
        let lim = limits_of(&req.limits);
        let value: T = match input.format.as_str() {
            "versioned" | "final" => {
                let data = match payload_binary(input.payload) {
                    Ok(d) => d,
                    Err(e) => return text("parse_error", &e),
                };
                let versioned = input.format == "versioned";
                if req.output == "verify" {
                    let verdict = if versioned {
                        T::verify_fbe(&data, &lim)
                    } else {
                        T::verify_final(&data, &lim)
                    };
                    return match verdict {
                        Ok(()) => text("result", "ok"),
                        Err(e) => text("parse_error", &e.to_string()),
                    };
                }
                match if versioned {
                    T::from_fbe_with(&data, &lim)
                } else {
                    T::from_final_with(&data, &lim)
                } {
                    Ok(v) => v,
                    Err(e) => return text("parse_error", &e.to_string()),
                }
            }
            "json" => {
                let doc = match payload_bytes(input.payload) {
                    Ok(d) => d,
                    Err(e) => return text("parse_error", &e),
                };
                match T::from_json_with(&doc, &lim) {
                    Ok(v) => v,
                    Err(e) => return text("parse_error", &e.to_string()),
                }
            }
            "value" => {
                let description = match describe::description(input.payload) {
                    Ok(v) => v,
                    Err(e) => return text("parse_error", &format!("payload: {e}")),
                };
                match T::from_value(&description) {
                    Ok(v) => v,
                    Err(e) => return unheld(&req, &e),
                }
            }
            other => return text("skipped", &format!("unknown input format {other}")),
        };
        let written = match req.output.as_str() {
            "versioned" => value.to_fbe(),
            "final" => value.to_final(),
            "json" => {
                return match value.to_json() {
                    Ok(j) => text("result", &String::from_utf8_lossy(&j)),
                    Err(e) => text("serialize_error", &e.to_string()),
                };
            }
            "text" => Ok(value.to_text()),
            "value" => {
                let mut out = Vec::new();
                value.describe(&mut out);
                return Answer("result", String::from_utf8_lossy(&out).into_owned());
            }
            other => return text("skipped", &format!("unknown output format {other}")),
        };
        match written {
            Ok(b) => base64("result", &b),
            Err(e) => text("serialize_error", &e.to_string()),
        }
    }
}

/// A protocol stream fed in one call to the package's receiver: each message delivered (by its
/// qualified name) and each frame reported.
fn events<M: fbe::Protocol, const FINAL: bool>(data: &[u8], lim: Limits) -> Answer {
    let mut out = Vec::new();
    let mut r = fbe::Receiver::<M, FINAL>::with_limits(lim);
    let _ = r.receive(data, |event| match event {
        Ok(m) => out.push(format!("{{\"message\":\"{}\"}}", m.name())),
        Err(e) => out.push(format!(
            "{{\"error\":{}}}",
            serde_json::to_string(&e.to_string()).unwrap_or_default()
        )),
    });
    Answer("result", format!("[{}]", out.join(",")))
}

fn answer(req: &Request<'_>) -> Answer {
    let Some(input) = &req.input else {
        return text("parse_error", "request: no input");
    };
    if input.format == "stream" || input.format == "final_stream" {
        let data = match payload_binary(input.payload) {
            Ok(d) => d,
            Err(e) => return text("parse_error", &e),
        };
        let lim = limits_of(&req.limits);
        return registry::receive(&req.package, input.format == "final_stream", &data, lim)
            .unwrap_or_else(|| {
                text(
                    "skipped",
                    &format!("package {} has no Receiver in this testee", req.package),
                )
            });
    }
    let qualified = format!("{}.{}", req.package, req.type_);
    registry::with_type(&qualified, Typed { req, input })
        .unwrap_or_else(|| text("skipped", &format!("no Rust type {qualified}")))
}

fn main() {
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    loop {
        let mut size = [0u8; 4];
        if stdin.read_exact(&mut size).is_err() {
            return;
        }
        let mut body = vec![0u8; u32::from_le_bytes(size) as usize];
        if stdin.read_exact(&mut body).is_err() {
            return;
        }
        let response = match std::str::from_utf8(&body)
            .map_err(|e| e.to_string())
            .and_then(parse_request)
        {
            Err(e) => {
                let Answer(member, value) = text("parse_error", &format!("request: {e}"));
                format!("{{\"{member}\":{value}}}")
            }
            Ok(req) if req.quit => return,
            Ok(req) => {
                let before = IN_USE.load(Ordering::Relaxed);
                PEAK.store(before, Ordering::Relaxed);
                let start = Instant::now();
                let Answer(member, value) = answer(&req);
                if req.measure {
                    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
                    let seconds = start.elapsed().as_secs_f64();
                    format!("{{\"{member}\":{value},\"measured\":{{\"peak_bytes\":{peak},\"seconds\":{seconds}}}}}")
                } else {
                    format!("{{\"{member}\":{value}}}")
                }
            }
        };
        let _ = stdout.write_all(&(response.len() as u32).to_le_bytes());
        let _ = stdout.write_all(response.as_bytes());
        let _ = stdout.flush();
    }
}
