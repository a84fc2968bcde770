//! Deterministic benchmark corpora, shared by the criterion benches and the instruction
//! counter (`examples/instructions.rs`).

/// A small xorshift generator: the same corpus on every run, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const NSS_EXTRA: &[u8] = b"-._~:;=@,+!$&'()*";

fn word(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| ALNUM[rng.below(ALNUM.len() as u64) as usize] as char)
        .collect()
}

fn hex(rng: &mut Rng, len: usize, upper: bool) -> String {
    let digits: &[u8] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    (0..len)
        .map(|_| digits[rng.below(16) as usize] as char)
        .collect()
}

fn scheme(rng: &mut Rng) -> &'static str {
    if rng.chance(15) { "URN" } else { "urn" }
}

fn case(rng: &mut Rng, nid: &str) -> String {
    if rng.chance(15) {
        nid.to_ascii_uppercase()
    } else {
        nid.to_owned()
    }
}

fn uuid(rng: &mut Rng) -> String {
    let upper = rng.chance(20);
    format!(
        "{}:{}:{}-{}-{}-{}-{}",
        scheme(rng),
        case(rng, "uuid"),
        hex(rng, 8, upper),
        hex(rng, 4, upper),
        hex(rng, 4, upper),
        hex(rng, 4, upper),
        hex(rng, 12, upper)
    )
}

fn isbn(rng: &mut Rng) -> String {
    let mut digits: Vec<u32> = vec![9, 7, 8];
    for _ in 0..9 {
        digits.push(rng.below(10) as u32);
    }
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { *d } else { d * 3 })
        .sum();
    digits.push((10 - sum % 10) % 10);
    let s: String = digits.iter().map(|d| char::from(b'0' + *d as u8)).collect();
    let nss = if rng.chance(50) {
        format!(
            "{}-{}-{}-{}-{}",
            &s[..3],
            &s[3..4],
            &s[4..7],
            &s[7..12],
            &s[12..]
        )
    } else {
        s
    };
    format!("{}:{}:{nss}", scheme(rng), case(rng, "isbn"))
}

fn ietf(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!("{}:ietf:rfc:{}", scheme(rng), rng.below(9000) + 1),
        1 => format!(
            "urn:ietf:params:scim:schemas:{}:2.0:{}",
            rng.pick(&["core", "extension:enterprise"]),
            rng.pick(&["User", "Group", "Schema"])
        ),
        _ => format!("urn:ietf:id:{}-{}", word(rng, 6), word(rng, 4)),
    }
}

fn example(rng: &mut Rng) -> String {
    let mut nss = String::new();
    let parts = 1 + rng.below(4);
    for p in 0..parts {
        if p > 0 {
            nss.push('/');
        }
        let len = 3 + rng.below(10) as usize;
        for _ in 0..len {
            match rng.below(12) {
                0 => nss.push(NSS_EXTRA[rng.below(NSS_EXTRA.len() as u64) as usize] as char),
                1 => {
                    let upper = rng.chance(50);
                    nss.push('%');
                    nss.push_str(&hex(rng, 2, upper));
                }
                _ => nss.push(ALNUM[rng.below(ALNUM.len() as u64) as usize] as char),
            }
        }
    }
    let nid = rng.pick(&["example", "Example", "ngsi-ld", "epc", "oasis", "xmpp"]);
    let mut s = format!("{}:{nid}:{nss}", scheme(rng));
    if rng.chance(10) {
        s += &format!("?+{}", word(rng, 6));
    }
    if rng.chance(15) {
        s += &format!("?=lang={}&v={}", word(rng, 2), rng.below(10));
    }
    if rng.chance(15) {
        s += &format!("#{}", word(rng, 5));
    }
    s
}

fn invalid(rng: &mut Rng) -> String {
    match rng.below(7) {
        0 => format!("urn:example:{} {}", word(rng, 5), word(rng, 4)),
        1 => format!("urn:example:{}?{}", word(rng, 8), word(rng, 3)),
        2 => format!("urn:trailing-:{}", word(rng, 8)),
        3 => format!("urn:example:{}%G1", word(rng, 8)),
        4 => format!("http://example.com/{}", word(rng, 8)),
        5 => format!("urn:example:/{}", word(rng, 8)),
        _ => format!("urn:x:{}", word(rng, 8)),
    }
}

/// About 1,000 URNs: uuid, isbn, ietf, example-like with `/`, mixed-case hex, components,
/// mixed-case scheme and NID; about 10% invalid.
pub fn mixed(n: usize) -> Vec<String> {
    let mut rng = Rng::new(0x005e_ed0f_u64);
    (0..n)
        .map(|_| match rng.below(100) {
            0..=24 => uuid(&mut rng),
            25..=44 => isbn(&mut rng),
            45..=59 => ietf(&mut rng),
            60..=89 => example(&mut rng),
            _ => invalid(&mut rng),
        })
        .collect()
}

/// URNs whose NSS is 200 to 2,000 bytes of path-like text with occasional `%XX`.
pub fn long(n: usize) -> Vec<String> {
    let mut rng = Rng::new(0x1096_u64);
    (0..n)
        .map(|_| {
            let target = 200 + rng.below(1801) as usize;
            let mut nss = word(&mut rng, 8);
            while nss.len() < target {
                match rng.below(40) {
                    0 => nss.push('/'),
                    1 => {
                        nss.push('%');
                        nss.push_str(&hex(&mut rng, 2, true));
                    }
                    2 => nss.push(NSS_EXTRA[rng.below(NSS_EXTRA.len() as u64) as usize] as char),
                    _ => nss.push(ALNUM[rng.below(ALNUM.len() as u64) as usize] as char),
                }
            }
            format!("urn:example:{nss}")
        })
        .collect()
}

/// One line of mixed text, for the benches of `find` (urn-cli's `urn find`, urn-arrow's
/// `Op::Find`): words of prose, catalogue and reference lines (some non-ASCII, some that look
/// like a URN's start), and in about one line of four a URN in one of five settings: an ISBN in
/// parentheses, an NBN resolver link, a uuid, a quoted example with components, an IETF RFC,
/// each followed by punctuation.
pub fn text_line(rng: &mut Rng) -> String {
    const WORDS: [&str; 24] = [
        "the",
        "catalogue",
        "record",
        "of",
        "Saturn:",
        "edition",
        "see",
        "also",
        "(print)",
        "Zürich",
        "résumé",
        "2019.",
        "pp.",
        "turn:",
        "left,",
        "https://example.org/a?b=c",
        "ISBN",
        "978-0-395-36341-6",
        "and",
        "in",
        "library",
        "vol.",
        "«quoted»",
        "data;",
    ];
    let mut line = String::new();
    let words = 8 + rng.below(12);
    let with_urn = rng.chance(25);
    for k in 0..words {
        line.push_str(rng.pick(&WORDS));
        line.push(' ');
        if k == 3 && with_urn {
            let n = rng.next();
            line.push_str(&match n % 5 {
                0 => format!("(URN:ISBN:0-395-{:05}-1), ", n % 100_000),
                1 => format!(
                    "https://nbn-resolving.org/urn:nbn:de:bvb:{}-{}. ",
                    n % 100,
                    n % 1_000_000
                ),
                2 => format!("{}. ", uuid(rng)),
                3 => format!("'urn:example:a{}%2Cb?=lang=en#p{}'; ", n % 999, n % 7),
                _ => format!("urn:ietf:rfc:{}. ", n % 9000),
            });
        }
    }
    line
}
