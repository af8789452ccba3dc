//! The libcrux backend of the ML-KEM KEMs and of the hybrids' ML-KEM half: FIPS 203 ML-KEM
//! computed by `libcrux-ml-kem`, in its unpacked (pre-expanded) key forms.
//!
//! A decapsulation key holds the key pair libcrux expands from the seed `d || z` once (the NTT
//! form of `s`, the matrix `A`, `t`, `H(ek)` and `z`), so decapsulation samples no matrix and
//! parses nothing. An encapsulation key holds the expanded public key (`A`, `t`, `H(ek)`), built
//! once when the key is parsed, after the FIPS 203 §7.2 modulus check.
//!
//! libcrux ships three implementations of every operation: portable Rust, AVX2 (x86_64) and
//! NEON (aarch64). The unpacked forms are typed by implementation, so each key records the one
//! it was built for, chosen by [`Implementation::detect`] with the CPU-feature test libcrux's own
//! multiplexing uses; keys never mix implementations. The SIMD code is only reachable when the
//! running CPU has the feature.
//!
//! libcrux has no `zeroize` support and its key types keep their fields private. A
//! decapsulation key is therefore wiped through libcrux's public API: on drop the expanded key
//! pair is overwritten with libcrux's all-zero default and the write is made observable with
//! [`core::hint::black_box`], so the compiler cannot drop it as a dead store. The seed is
//! `Zeroizing`. What libcrux leaves on its own stack during key generation and decapsulation is
//! beyond this crate's reach.

/// Which of libcrux's implementations a key was built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Implementation {
    /// Portable Rust, every target.
    Portable,
    /// AVX2, x86_64 CPUs that have it.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// NEON, aarch64.
    #[cfg(target_arch = "aarch64")]
    Neon,
}

/// Set by [`crate::hazmat::force_portable_ml_kem`]: keys made while it is set use libcrux's
/// portable code, so that a test (the `ct/` harness under valgrind) can reach it on a CPU that
/// would pick SIMD. Not in a build without `hazmat`.
#[cfg(feature = "hazmat")]
pub(crate) static FORCE_PORTABLE: core::sync::atomic::AtomicBool =
    core::sync::atomic::AtomicBool::new(false);

impl Implementation {
    /// The fastest implementation the running CPU supports.
    pub(crate) fn detect() -> Self {
        #[cfg(feature = "hazmat")]
        if FORCE_PORTABLE.load(core::sync::atomic::Ordering::Relaxed) {
            return Implementation::Portable;
        }
        #[cfg(target_arch = "x86_64")]
        if libcrux_platform::simd256_support() {
            return Implementation::Avx2;
        }
        #[cfg(target_arch = "aarch64")]
        if libcrux_platform::simd128_support() {
            return Implementation::Neon;
        }
        Implementation::Portable
    }
}

/// `match` over a key's implementation, with `$m` naming libcrux's module for it.
macro_rules! per_implementation {
    ($enum:ident, $value:expr, |$key:ident| $body:expr) => {
        match $value {
            $enum::Portable(_, $key, _) => $body,
            #[cfg(target_arch = "x86_64")]
            $enum::Avx2(_, $key, _) => $body,
            #[cfg(target_arch = "aarch64")]
            $enum::Neon(_, $key, _) => $body,
        }
    };
    ($enum:ident, $value:expr, |$key:ident, $m:ident| $body:expr) => {
        match $value {
            $enum::Portable(_, $key, _) => {
                use lib::portable as $m;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $enum::Avx2(_, $key, _) => {
                use lib::avx2 as $m;
                $body
            }
            #[cfg(target_arch = "aarch64")]
            $enum::Neon(_, $key, _) => {
                use lib::neon as $m;
                $body
            }
        }
    };
}

/// An enum of libcrux's `$ty` for each implementation (portable, and AVX2 or NEON), in
/// `crate::layout::lead`'s layout: its variants differ in size and alignment (the SIMD types
/// are 32-byte aligned), and as a plain enum it carried up to 31 bytes of padding after its tag
/// and the bytes past a smaller variant, whatever the stack held there.
macro_rules! implementations {
    ($(#[$attr:meta])* $name:ident, $total:ident, $ty:ident) => {
        const $total: usize = crate::layout::total(
            &[
                crate::layout::size_align!(lib::portable::unpacked::$ty),
                #[cfg(target_arch = "x86_64")]
                crate::layout::size_align!(lib::avx2::unpacked::$ty),
                #[cfg(target_arch = "aarch64")]
                crate::layout::size_align!(lib::neon::unpacked::$ty),
            ],
            1,
        );

        $(#[$attr])*
        #[repr(u8)]
        #[allow(dead_code, reason = "the fill is written, never read")]
        enum $name {
            Portable(
                Fill<{ lead(core::mem::align_of::<lib::portable::unpacked::$ty>()) }>,
                lib::portable::unpacked::$ty,
                Fill<{
                    tail(
                        $total,
                        core::mem::size_of::<lib::portable::unpacked::$ty>(),
                        core::mem::align_of::<lib::portable::unpacked::$ty>(),
                    )
                }>,
            ),
            #[cfg(target_arch = "x86_64")]
            Avx2(
                Fill<{ lead(core::mem::align_of::<lib::avx2::unpacked::$ty>()) }>,
                lib::avx2::unpacked::$ty,
                Fill<{
                    tail(
                        $total,
                        core::mem::size_of::<lib::avx2::unpacked::$ty>(),
                        core::mem::align_of::<lib::avx2::unpacked::$ty>(),
                    )
                }>,
            ),
            #[cfg(target_arch = "aarch64")]
            Neon(
                Fill<{ lead(core::mem::align_of::<lib::neon::unpacked::$ty>()) }>,
                lib::neon::unpacked::$ty,
                Fill<{
                    tail(
                        $total,
                        core::mem::size_of::<lib::neon::unpacked::$ty>(),
                        core::mem::align_of::<lib::neon::unpacked::$ty>(),
                    )
                }>,
            ),
        }

        const _: () = assert!(core::mem::size_of::<$name>() == $total);
    };
}

macro_rules! parameter_set {
    ($module:ident, $lib:ident, $pair:ident, $public:ident, $pk:ident, $ct:ident, $npk:literal, $nct:literal) => {
        pub(crate) mod $module {
            use libcrux_ml_kem::$lib as lib;
            use zeroize::{ZeroizeOnDrop, Zeroizing};

            use crate::layout::{Fill, lead, tail};

            use super::Implementation;

            /// `Npk`, the encapsulation key's length.
            pub(crate) const NPK: usize = $npk;
            /// The ciphertext's length.
            pub(crate) const NCT: usize = $nct;

            implementations!(
                /// libcrux's expanded key pair, for the implementation chosen at run time.
                Pair, PAIR_TOTAL, $pair
            );
            implementations!(
                /// libcrux's expanded encapsulation key, likewise.
                #[derive(Clone)]
                Public, PUBLIC_TOTAL, $public
            );

            /// A decapsulation key: the seed `d || z` and the key pair expanded from it.
            #[doc(hidden)]
            pub struct DecapKey {
                seed: Zeroizing<[u8; 64]>,
                pair: Pair,
            }

            /// An encapsulation key, expanded.
            #[derive(Clone)]
            #[doc(hidden)]
            pub struct EncapKey(Public);

            impl DecapKey {
                /// `ML-KEM.KeyGen_internal(d, z)` (FIPS 203 §6.1) with `seed = d || z`: the
                /// decapsulation key, the encapsulation key and the latter's bytes.
                pub(crate) fn from_seed(
                    seed: Zeroizing<[u8; 64]>,
                    implementation: Implementation,
                ) -> (Self, EncapKey, [u8; NPK]) {
                    // Each implementation's work is a function of its own: a debug build gives
                    // every temporary of a function its own stack slot, and with the work in
                    // the arms this frame held both implementations' key pairs at once.
                    macro_rules! generate {
                        ($variant:ident, $m:ident) => {{
                            fn generate(seed: &[u8; 64]) -> (Pair, Public, lib::$pk) {
                                use lib::$m as m;
                                let pair = m::unpacked::generate_key_pair(*seed);
                                let bytes = m::unpacked::key_pair_serialized_public_key(&pair);
                                let public = Public::$variant(Fill::ZERO, pair.public_key.clone(), Fill::ZERO);
                                (Pair::$variant(Fill::ZERO, pair, Fill::ZERO), public, bytes)
                            }
                            generate(&seed)
                        }};
                    }
                    let (pair, public, bytes) = match implementation {
                        Implementation::Portable => generate!(Portable, portable),
                        #[cfg(target_arch = "x86_64")]
                        Implementation::Avx2 => generate!(Avx2, avx2),
                        #[cfg(target_arch = "aarch64")]
                        Implementation::Neon => generate!(Neon, neon),
                    };
                    (Self { seed, pair }, EncapKey(public), *bytes.as_slice())
                }

                /// The seed `d || z`.
                pub(crate) fn seed(&self) -> &[u8; 64] {
                    &self.seed
                }

                /// The implementation this key was built for.
                pub(crate) fn implementation(&self) -> Implementation {
                    Implementation::from(&self.pair)
                }

                /// `ML-KEM.Decaps_internal(dk, c)` (FIPS 203 §6.3), implicit rejection included:
                /// a ciphertext that does not re-encrypt yields `J(z || c)`, never an error.
                pub(crate) fn decapsulate(&self, ct: &[u8; NCT]) -> Zeroizing<[u8; 32]> {
                    let ct = lib::$ct::from(ct);
                    per_implementation!(Pair, &self.pair, |pair, m| Zeroizing::new(
                        m::unpacked::decapsulate(pair, &ct)
                    ))
                }
            }

            impl From<&Pair> for Implementation {
                fn from(pair: &Pair) -> Self {
                    match pair {
                        Pair::Portable(..) => Implementation::Portable,
                        #[cfg(target_arch = "x86_64")]
                        Pair::Avx2(..) => Implementation::Avx2,
                        #[cfg(target_arch = "aarch64")]
                        Pair::Neon(..) => Implementation::Neon,
                    }
                }
            }

            impl Clone for DecapKey {
                /// libcrux's expanded key pair is not `Clone`: the copy is expanded again from
                /// the seed, for the same implementation.
                fn clone(&self) -> Self {
                    Self::from_seed(self.seed.clone(), self.implementation()).0
                }
            }

            impl Drop for DecapKey {
                fn drop(&mut self) {
                    // libcrux's default key pair is all zeros; see the module documentation.
                    per_implementation!(Pair, &mut self.pair, |pair| {
                        *pair = Default::default();
                        core::hint::black_box(&*pair);
                    })
                }
            }

            impl core::fmt::Debug for DecapKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str("DecapKey(<redacted>)")
                }
            }

            impl core::fmt::Debug for EncapKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    // The bytes sit beside it in the public key, whose `Debug` shows them.
                    f.write_str("EncapKey(..)")
                }
            }

            // The seed is `Zeroizing` and `Drop` above overwrites the expanded key pair.
            impl ZeroizeOnDrop for DecapKey {}

            impl EncapKey {
                /// Parses `ek` after the FIPS 203 §7.2 encapsulation key check (every
                /// coefficient below `q`), and expands it: `None` when the check fails.
                pub(crate) fn from_bytes(
                    bytes: &[u8; NPK],
                    implementation: Implementation,
                ) -> Option<Self> {
                    let bytes = lib::$pk::from(bytes);
                    macro_rules! parse {
                        ($variant:ident, $m:ident) => {{
                            use lib::$m as m;
                            if !m::validate_public_key(&bytes) {
                                return None;
                            }
                            let mut public = m::unpacked::init_public_key();
                            m::unpacked::unpacked_public_key(&bytes, &mut public);
                            Public::$variant(Fill::ZERO, public, Fill::ZERO)
                        }};
                    }
                    Some(EncapKey(match implementation {
                        Implementation::Portable => parse!(Portable, portable),
                        #[cfg(target_arch = "x86_64")]
                        Implementation::Avx2 => parse!(Avx2, avx2),
                        #[cfg(target_arch = "aarch64")]
                        Implementation::Neon => parse!(Neon, neon),
                    }))
                }

                /// `ML-KEM.Encaps_internal(ek, m)` (FIPS 203 §6.2): the ciphertext and the
                /// shared secret.
                pub(crate) fn encapsulate(&self, m: &[u8; 32]) -> ([u8; NCT], Zeroizing<[u8; 32]>) {
                    per_implementation!(Public, &self.0, |public, b| {
                        let (ct, ss) = b::unpacked::encapsulate(public, *m);
                        (*ct.as_slice(), Zeroizing::new(ss))
                    })
                }
            }
        }
    };
}

parameter_set!(
    mlkem512,
    mlkem512,
    MlKem512KeyPairUnpacked,
    MlKem512PublicKeyUnpacked,
    MlKem512PublicKey,
    MlKem512Ciphertext,
    800,
    768
);
parameter_set!(
    mlkem768,
    mlkem768,
    MlKem768KeyPairUnpacked,
    MlKem768PublicKeyUnpacked,
    MlKem768PublicKey,
    MlKem768Ciphertext,
    1184,
    1088
);
parameter_set!(
    mlkem1024,
    mlkem1024,
    MlKem1024KeyPairUnpacked,
    MlKem1024PublicKeyUnpacked,
    MlKem1024PublicKey,
    MlKem1024Ciphertext,
    1568,
    1568
);

/// libcrux's portable code against the SIMD code this machine selects, on the same inputs: key
/// generation, encapsulation, and decapsulation of honest and of random ciphertexts agree byte
/// for byte. On an AVX2 or NEON machine this is what exercises the portable fallback.
#[cfg(all(test, feature = "std"))]
mod tests {
    use shake::digest::{ExtendableOutput, Update, XofReader};
    use zeroize::Zeroizing;

    use super::Implementation;

    const SEEDS: usize = 200;

    /// A deterministic byte stream: SHAKE256 of the test's name.
    fn stream(label: &str) -> impl XofReader {
        let mut xof = shake::Shake256::default();
        xof.update(label.as_bytes());
        xof.finalize_xof()
    }

    #[test]
    fn the_simd_code_is_selected_where_the_cpu_has_it() {
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            Implementation::detect() == Implementation::Avx2,
            std::is_x86_feature_detected!("avx2"),
        );
        #[cfg(target_arch = "aarch64")]
        assert_eq!(Implementation::detect(), Implementation::Neon);
        std::println!(
            "ML-KEM implementation on this machine: {:?}",
            Implementation::detect()
        );
    }

    macro_rules! portable_matches_simd {
        ($test:ident, $module:ident) => {
            #[test]
            fn $test() {
                use super::$module::{DecapKey, EncapKey, NCT};
                let simd = Implementation::detect();
                let mut bytes = stream(stringify!($test));
                for i in 0..SEEDS {
                    let mut seed = Zeroizing::new([0u8; 64]);
                    bytes.read(&mut seed[..]);
                    let (dk_p, ek_p, pk_p) =
                        DecapKey::from_seed(seed.clone(), Implementation::Portable);
                    let (dk_s, ek_s, pk_s) = DecapKey::from_seed(seed, simd);
                    assert_eq!(dk_p.implementation(), Implementation::Portable);
                    assert_eq!(dk_s.implementation(), simd);
                    assert_eq!(pk_p, pk_s, "#{i} pk");

                    // Each implementation parses the other's key bytes the same way.
                    let ek_ps = EncapKey::from_bytes(&pk_s, Implementation::Portable).unwrap();
                    let ek_sp = EncapKey::from_bytes(&pk_p, simd).unwrap();
                    let mut m = [0u8; 32];
                    bytes.read(&mut m);
                    let (ct, ss) = ek_p.encapsulate(&m);
                    for (name, ek) in [("simd", &ek_s), ("parsed p", &ek_ps), ("parsed s", &ek_sp)]
                    {
                        let (ct2, ss2) = ek.encapsulate(&m);
                        assert_eq!(ct, ct2, "#{i} ct {name}");
                        assert_eq!(*ss, *ss2, "#{i} ss {name}");
                    }
                    assert_eq!(*dk_p.decapsulate(&ct), *ss, "#{i} decap portable");
                    assert_eq!(*dk_s.decapsulate(&ct), *ss, "#{i} decap simd");

                    // Implicit rejection: the same pseudorandom secret from both.
                    let mut junk = [0u8; NCT];
                    bytes.read(&mut junk);
                    let rejected = dk_p.decapsulate(&junk);
                    assert_ne!(*rejected, *ss);
                    assert_eq!(*dk_s.decapsulate(&junk), *rejected, "#{i} junk");

                    // A clone is expanded again for the same implementation.
                    let clone = dk_p.clone();
                    assert_eq!(clone.implementation(), Implementation::Portable);
                    assert_eq!(*clone.decapsulate(&junk), *rejected, "#{i} clone");
                }
            }
        };
    }

    portable_matches_simd!(ml_kem_512_portable_matches_simd, mlkem512);
    portable_matches_simd!(ml_kem_768_portable_matches_simd, mlkem768);
    portable_matches_simd!(ml_kem_1024_portable_matches_simd, mlkem1024);

    #[test]
    fn both_implementations_apply_the_modulus_check() {
        use super::mlkem768::{DecapKey, EncapKey, NPK};
        let (_, _, mut pk) =
            DecapKey::from_seed(Zeroizing::new([7u8; 64]), Implementation::Portable);
        // The first coefficient of t is the low 12 bits of bytes 0..2: set it to q = 3329.
        pk[0] = (3329 & 0xff) as u8;
        pk[1] = (pk[1] & 0xf0) | (3329 >> 8) as u8;
        for implementation in [Implementation::Portable, Implementation::detect()] {
            assert!(
                EncapKey::from_bytes(&pk, implementation).is_none(),
                "{implementation:?}"
            );
        }
        // q - 1 is a valid coefficient.
        pk[0] = (3328 & 0xff) as u8;
        for implementation in [Implementation::Portable, Implementation::detect()] {
            assert!(
                EncapKey::from_bytes(&pk, implementation).is_some(),
                "{implementation:?}"
            );
        }
        let _: [u8; NPK] = pk;
    }
}
