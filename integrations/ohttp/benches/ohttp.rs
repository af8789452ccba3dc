//! Per-request costs of Oblivious HTTP (RFC 9458): typed-hpke-ohttp against the `ohttp` crate
//! 0.8 (its default rust-hpke backend), by the paired rounds of the workspace's comparative
//! bench (`typed_hpke_support::driver`).
//!
//! ```text
//! cargo bench -p typed-hpke-ohttp --bench ohttp [-- FILTER ...]
//! ```
//!
//! Rows, each with 1 KiB bodies:
//! - `client_request`: the client encapsulates a request to a configuration it holds (§4.3).
//!   typed-hpke-ohttp prepares the gateway's key once per configuration (`Client::new`);
//!   `ohttp` has no reusable client, so each of its requests starts with
//!   `ClientRequest::from_config` on a decoded configuration it holds (its cheapest path).
//! - `client_once` / `client_once_unprepared`: a client made from the decoded configuration
//!   and one request sent, what a client that sends one request per configuration pays: with
//!   the gateway's key prepared (`Client::new`) and unprepared (`Client::unprepared`). `ohttp`
//!   does the same work as in `client_request`.
//! - `gateway`: the gateway decapsulates a request and encapsulates the response (§4.3, §4.4):
//!   its whole per-request cost. The requests are made before the clock starts.
//! - `client_response`: the client decapsulates the response (§4.4). The requests and
//!   responses are made before the clock starts.
//!
//! Suites: X25519 and X-Wing with HKDF-SHA256 and AES-128-GCM, both implementations; ML-KEM-768,
//! typed-hpke-ohttp alone (`ohttp` 0.8 has no ML-KEM). Before a row is timed, each side's
//! request is opened by the other and each response read back, so no row times a failure.
//!
//! The statistic is `driver`'s: per round each implementation runs one batch, in an order
//! rotated from round to round, with the batch sized so typed-hpke-ohttp's lasts
//! `OHTTP_BATCH_MS` (default 20); the ratio typed-hpke-ohttp / `ohttp` per round gives a median
//! and a distribution-free 95% confidence interval over `OHTTP_ROUNDS` (default 21) rounds.
//! `OHTTP_QUICK=1` runs three rounds of short batches: a check that the bench still runs.

use driver::{Job, Outcome, TYPED, timed, timed_with};
use ohttp::hpke::{Aead as OAead, Kdf as OKdf, Kem as OKem};
use typed_hpke_ohttp::{Client, ClientResponse, Gateway, GatewayKey, OsRng, SymmetricSuite};
use typed_hpke_support::driver;

/// Counted allocations, for the driver's allocation column.
#[global_allocator]
static COUNTING: driver::Counting = driver::Counting;

const BODY: usize = 1024;

/// A row's jobs: typed-hpke-ohttp's first, then the peer's where it has the suite.
type Jobs = Vec<(&'static str, Job)>;

/// A row: its operation's name, and the jobs that time it on a suite's two sides.
type Row = (&'static str, fn(&Sides) -> Jobs);
const PEER: &str = "ohttp 0.8";

fn body(seed: u8) -> Vec<u8> {
    (0..BODY)
        .map(|i| (i as u8).wrapping_mul(13).wrapping_add(seed))
        .collect()
}

/// One suite: its name, our KEM id, and the peer's KEM where it has one. The KDF and AEAD are
/// HKDF-SHA256 and AES-128-GCM throughout.
struct Case {
    name: &'static str,
    kem: u16,
    peer: Option<OKem>,
}

const CASES: [Case; 3] = [
    Case {
        name: "X25519",
        kem: 0x0020,
        peer: Some(OKem::X25519Sha256),
    },
    Case {
        name: "X-Wing",
        kem: 0x647a,
        peer: Some(OKem::XWing),
    },
    Case {
        name: "ML-KEM-768",
        kem: 0x0041,
        peer: None,
    },
];

/// Both sides of one suite: our gateway and client, and the peer's configuration and server
/// with the same key pair (derived from the same seed).
struct Sides {
    gateway: Gateway,
    client: Client,
    config: typed_hpke_ohttp::KeyConfig,
    peer: Option<(ohttp::KeyConfig, ohttp::Server)>,
}

fn sides(case: &Case) -> Sides {
    let ikm = [0x3c; 32];
    let pair = SymmetricSuite::new(0x0001, 0x0001);
    let key = GatewayKey::derive(1, case.kem, vec![pair], &ikm).unwrap();
    let client = Client::new(key.config()).unwrap();
    let config = key.config().clone();
    let encoded = key.config().encode();
    let gateway = Gateway::new([key]).unwrap();
    let peer = case.peer.map(|kem| {
        let config = ohttp::KeyConfig::derive(
            1,
            kem,
            vec![ohttp::SymmetricSuite::new(
                OKdf::HkdfSha256,
                OAead::Aes128Gcm,
            )],
            &ikm,
        )
        .unwrap();
        assert_eq!(
            config.encode().unwrap(),
            encoded,
            "{}: configurations",
            case.name
        );
        let server = ohttp::Server::new(config.clone()).unwrap();
        (config, server)
    });
    Sides {
        gateway,
        client,
        config,
        peer,
    }
}

/// The peer's request of `body` to `config`: a fresh `ClientRequest` each time, as `ohttp` asks.
fn peer_request(config: &mut ohttp::KeyConfig, body: &[u8]) -> (Vec<u8>, ohttp::ClientResponse) {
    ohttp::ClientRequest::from_config(config)
        .unwrap()
        .encapsulate(body)
        .unwrap()
}

/// Each side's request opened by the other, and each response read back.
fn check(case: &Case, s: &Sides) {
    let mut rng = OsRng::default();
    let (request, response) = (body(1), body(2));
    let (enc, ours) = s.client.encapsulate(&mut rng, &request).unwrap();
    let (opened, reply) = s.gateway.decapsulate(&enc).unwrap();
    assert_eq!(opened, request, "{}", case.name);
    let enc_response = reply.encapsulate(&mut rng, &response).unwrap();
    assert_eq!(ours.decapsulate(&enc_response).unwrap(), response);
    if let Some((config, server)) = &s.peer {
        let (enc, ours) = s.client.encapsulate(&mut rng, &request).unwrap();
        let (opened, reply) = server.decapsulate(&enc).unwrap();
        assert_eq!(opened, request, "{}: ours to the peer", case.name);
        let enc_response = reply.encapsulate(&response).unwrap();
        assert_eq!(ours.decapsulate(&enc_response).unwrap(), response);
        let (enc, theirs) = peer_request(&mut config.clone(), &request);
        let (opened, reply) = s.gateway.decapsulate(&enc).unwrap();
        assert_eq!(opened, request, "{}: the peer's to ours", case.name);
        let enc_response = reply.encapsulate(&mut rng, &response).unwrap();
        assert_eq!(theirs.decapsulate(&enc_response).unwrap(), response);
    }
}

fn client_request(s: &Sides) -> Jobs {
    let request = body(3);
    let client = s.client.clone();
    let mut rng = OsRng::default();
    let r = request.clone();
    let mut jobs: Jobs = vec![(
        TYPED,
        timed(move || client.encapsulate(&mut rng, &r).unwrap()),
    )];
    if let Some((config, _)) = &s.peer {
        let mut config = config.clone();
        jobs.push((PEER, timed(move || peer_request(&mut config, &request))));
    }
    jobs
}

/// A client made from the configuration, prepared or not, and its one request.
fn client_once_with(s: &Sides, prepared: bool) -> Jobs {
    let request = body(3);
    let config = s.config.clone();
    let pair = SymmetricSuite::HKDF_SHA256_AES_128_GCM;
    let mut rng = OsRng::default();
    let r = request.clone();
    let mut jobs: Jobs = vec![(
        TYPED,
        timed(move || {
            let client = if prepared {
                Client::with_symmetric(&config, pair)
            } else {
                Client::unprepared(&config, pair)
            };
            client.unwrap().encapsulate(&mut rng, &r).unwrap()
        }),
    )];
    if let Some((config, _)) = &s.peer {
        let mut config = config.clone();
        jobs.push((PEER, timed(move || peer_request(&mut config, &request))));
    }
    jobs
}

fn client_once(s: &Sides) -> Jobs {
    client_once_with(s, true)
}

fn client_once_unprepared(s: &Sides) -> Jobs {
    client_once_with(s, false)
}

fn gateway(s: &Sides) -> Jobs {
    let response = body(4);
    let (client, gateway) = (s.client.clone(), s.gateway.clone());
    let r = response.clone();
    let mut jobs: Jobs = vec![(
        TYPED,
        timed_with(
            move |n| {
                let mut rng = OsRng::default();
                let requests: Vec<Vec<u8>> = (0..n)
                    .map(|_| client.encapsulate(&mut rng, &body(5)).unwrap().0)
                    .collect();
                (rng, requests.into_iter())
            },
            move |(rng, requests)| {
                let (_, reply) = gateway.decapsulate(&requests.next().unwrap()).unwrap();
                reply.encapsulate(rng, &r).unwrap()
            },
        ),
    )];
    if let Some((config, server)) = &s.peer {
        let (mut config, server) = (config.clone(), server.clone());
        jobs.push((
            PEER,
            timed_with(
                move |n| {
                    let requests: Vec<Vec<u8>> = (0..n)
                        .map(|_| peer_request(&mut config, &body(5)).0)
                        .collect();
                    requests.into_iter()
                },
                move |requests| {
                    let (_, reply) = server.decapsulate(&requests.next().unwrap()).unwrap();
                    reply.encapsulate(&response).unwrap()
                },
            ),
        ));
    }
    jobs
}

fn client_response(s: &Sides) -> Jobs {
    let (client, gateway) = (s.client.clone(), s.gateway.clone());
    let mut jobs: Jobs = vec![(
        TYPED,
        timed_with(
            move |n| {
                let mut rng = OsRng::default();
                let pairs: Vec<(ClientResponse, Vec<u8>)> = (0..n)
                    .map(|_| {
                        let (enc, pending) = client.encapsulate(&mut rng, &body(6)).unwrap();
                        let (_, reply) = gateway.decapsulate(&enc).unwrap();
                        (pending, reply.encapsulate(&mut rng, &body(7)).unwrap())
                    })
                    .collect();
                pairs.into_iter()
            },
            |pairs| {
                let (pending, enc_response) = pairs.next().unwrap();
                pending.decapsulate(&enc_response).unwrap()
            },
        ),
    )];
    if let Some((config, server)) = &s.peer {
        let (mut config, server) = (config.clone(), server.clone());
        jobs.push((
            PEER,
            timed_with(
                move |n| {
                    let pairs: Vec<(ohttp::ClientResponse, Vec<u8>)> = (0..n)
                        .map(|_| {
                            let (enc, pending) = peer_request(&mut config, &body(6));
                            let (_, reply) = server.decapsulate(&enc).unwrap();
                            (pending, reply.encapsulate(&body(7)).unwrap())
                        })
                        .collect();
                    pairs.into_iter()
                },
                |pairs| {
                    let (pending, enc_response) = pairs.next().unwrap();
                    pending.decapsulate(&enc_response).unwrap()
                },
            ),
        ));
    }
    jobs
}

fn main() {
    let config = driver::integration_config("OHTTP");
    println!("| row | typed-hpke-ohttp | {PEER} | ratio (95% CI) | allocations (ours / peer) |");
    println!("|---|---|---|---|---|");
    let rows: [Row; 5] = [
        ("client_request", client_request),
        ("client_once", client_once),
        ("client_once_unprepared", client_once_unprepared),
        ("gateway", gateway),
        ("client_response", client_response),
    ];
    for case in &CASES {
        let s = sides(case);
        check(case, &s);
        for (op, jobs) in rows {
            let row = format!("{op}/{}/HKDF-SHA256/AES-128-GCM/1KiB", case.name);
            if !config.filter.is_empty() && !config.filter.iter().any(|f| row.contains(f)) {
                continue;
            }
            let outcomes = driver::run(&config, &row, jobs(&s));
            print_row(&row, &outcomes);
        }
    }
}

fn us(ns: f64) -> String {
    format!("{:.1} µs", ns / 1e3)
}

fn print_row(row: &str, outcomes: &[Outcome]) {
    let ours = &outcomes[0];
    match outcomes.get(1) {
        Some(peer) => println!(
            "| `{row}` | {} | {} | {:.2} ({:.2}-{:.2}) | {:.0} / {:.0} |",
            us(ours.ns),
            us(peer.ns),
            peer.median,
            peer.lo,
            peer.hi,
            ours.allocations,
            peer.allocations,
        ),
        None => println!(
            "| `{row}` | {} | - | - | {:.0} / - |",
            us(ours.ns),
            ours.allocations
        ),
    }
}
