//! The `arbitrary` and `proptest` generators: every value valid (for its namespace's rules too),
//! every shape covered, respellings keep the key.
#![cfg(all(feature = "arbitrary", feature = "proptest"))]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeSet;

use arbitrary::{Arbitrary, Unstructured};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use urn_core::{KnownNamespace, Namespace, NsUrn, Urn, UrnKey, ns, strategy};

/// Deterministic pseudo-random bytes.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

#[test]
fn arbitrary_urns_are_always_valid_and_cover_every_shape() {
    let mut namespaces = BTreeSet::new();
    let (mut other, mut r, mut q, mut f, mut hex, mut upper) = (0, 0, 0, 0, 0, 0);
    for seed in 0..20_000 {
        let data = bytes(seed, 64 + (seed as usize % 200));
        let urn = Urn::arbitrary(&mut Unstructured::new(&data))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let again = Urn::parse(urn.as_str()).unwrap();
        assert!(again.eq_text(&urn));
        match urn.namespace() {
            Some(known) => {
                assert!(
                    urn.validate_namespace().is_ok(),
                    "{urn}: {:?}",
                    urn.validate_namespace()
                );
                namespaces.insert(known);
            }
            None => other += 1,
        }
        r += usize::from(urn.r_component().is_some());
        q += usize::from(urn.q_component().is_some());
        f += usize::from(urn.f_component().is_some());
        hex += usize::from(urn.nss().contains('%'));
        upper += usize::from(urn.as_str().starts_with('U'));
        let key = UrnKey::arbitrary(&mut Unstructured::new(&data)).unwrap();
        assert_eq!(key, urn.key());
    }
    assert_eq!(
        namespaces.len(),
        KnownNamespace::ALL.len(),
        "{namespaces:?}"
    );
    for (what, n) in [
        ("other NIDs", other),
        ("r", r),
        ("q", q),
        ("f", f),
        ("%XX", hex),
        ("URN:", upper),
    ] {
        assert!(n > 500, "{what}: {n} of 20000");
    }
}

fn typed_always<N: Namespace>() {
    for seed in 0..2_000 {
        let data = bytes(seed, 128);
        let urn = NsUrn::<N>::arbitrary(&mut Unstructured::new(&data))
            .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", N::NID));
        assert!(urn.nid().eq_ignore_ascii_case(N::NID));
    }
}

urn_core::namespace!(Acme, "acme-thing", |nss: &str| match nss.find('!') {
    Some(at) => Err(urn_core::NamespaceError::new(at, "no '!' here")),
    None => Ok(()),
});

/// Calls `typed_always` for the marker of every row of the namespace table.
macro_rules! every_marker {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
        $(typed_always::<ns::$variant>();)*
    };
}

#[test]
fn arbitrary_typed_urns_are_valid_for_their_namespace() {
    urn_core::known_namespaces!(every_marker);
    typed_always::<Acme>();
}

/// `urn_in` never rejects a draw (a rejection would mean the generator built an invalid URN).
#[test]
fn strategies_never_reject_and_respellings_keep_the_key() {
    let config = Config {
        cases: 2_000,
        max_local_rejects: 0,
        max_global_rejects: 0,
        failure_persistence: None,
        ..Config::default()
    };
    for &namespace in KnownNamespace::ALL {
        TestRunner::new(config.clone())
            .run(&strategy::urn_in(namespace), |urn| {
                prop_assert_eq!(urn.namespace(), Some(namespace));
                prop_assert!(urn.validate_namespace().is_ok());
                Ok(())
            })
            .unwrap();
    }
    let changed = std::cell::Cell::new(0);
    let nss_changed = std::cell::Cell::new(0);
    let spellings = strategy::urn()
        .prop_flat_map(|urn| (Just(urn.clone()), strategy::equivalent_spellings(&urn)));
    TestRunner::new(config.clone())
        .run(&spellings, |(urn, spelling)| {
            prop_assert_eq!(spelling.key(), urn.key());
            prop_assert_eq!(&spelling, &urn);
            changed.set(changed.get() + usize::from(spelling.as_str() != urn.as_str()));
            nss_changed.set(nss_changed.get() + usize::from(spelling.nss() != urn.nss()));
            Ok(())
        })
        .unwrap();
    let (changed, nss_changed) = (changed.get(), nss_changed.get());
    assert!(changed > 1_500, "{changed} of 2000 respelled");
    assert!(
        nss_changed > 100,
        "{nss_changed} of 2000 with another NSS spelling"
    );
    TestRunner::new(config)
        .run(&strategy::ns_urn::<ns::Isbn>(), |isbn| {
            prop_assert!(isbn.validate_namespace().is_ok());
            Ok(())
        })
        .unwrap();
}

proptest! {
    /// Keys from the strategy are canonical.
    #[test]
    fn strategy_keys_are_canonical(key in strategy::urn_key()) {
        prop_assert!(UrnKey::parse(key.as_str()).is_ok());
    }
}
