use super::*;

#[test]
fn cuts_keep_enough_and_go_from_coarse_to_fine() {
    assert_eq!(cuts(1, 1), Vec::<Range<usize>>::new());
    assert_eq!(cuts(1, 0), vec![0..1]);
    assert_eq!(cuts(3, 1), vec![0..2, 2..3, 0..1, 1..2, 2..3]);
    assert_eq!(cuts(4, 3), vec![0..1, 1..2, 2..3, 3..4]);
    assert!(cuts(10_000, 1).len() <= CANDIDATES_PER_KIND);
    assert_eq!(without(&[1, 2, 3, 4], &(1..3)), [1, 4]);
}

#[test]
fn smaller_values_are_smaller_and_not_below_the_minimum() {
    assert_eq!(smaller_values(10, 1), [1, 5, 9]);
    assert_eq!(smaller_values(2, 1), [1]);
    assert_eq!(smaller_values(1, 1), Vec::<u64>::new());
    assert_eq!(smaller_values(3, 0), [0, 1, 2]);
    assert_eq!(smaller_values(u64::MAX, 0), [0, u64::MAX / 2, u64::MAX - 1]);
}

#[test]
fn random_helpers_stay_in_range_and_repeat_per_seed() {
    let mut a = rng(7);
    for _ in 0..2000 {
        let lo = between(&mut a, 0, 50);
        let hi = lo + between(&mut a, 0, 1 << 40);
        let v = shaped(&mut a, lo, hi);
        assert!((lo..=hi).contains(&v));
        let mut picked = distinct(&mut a, 5, lo, lo + 6);
        picked.sort_unstable();
        picked.dedup();
        assert_eq!(picked.len(), 5);
    }
    assert_eq!(
        shaped(&mut rng(3), 0, u64::MAX),
        shaped(&mut rng(3), 0, u64::MAX)
    );
    assert_eq!(cap(0, 1, 100), 1);
    assert_eq!(cap(1 << 40, 1, 100), 100);
}

/// A plain rules-only table (the set-nim brute force's), never `sg::subtraction_table`.
fn rules_table(moves: &[u64], upto: usize) -> Vec<u32> {
    grundy_by_mex(moves, upto)
}

#[test]
fn the_compared_period_of_the_seed_set_and_of_sets_worked_by_hand() {
    // {1, 3, 4}: 0 1 0 1 2 3 2 repeating from 0; 7 + 4 = 11 values prove it, 10 do not.
    let table = rules_table(&[1, 3, 4], 10);
    assert_eq!(period_by_comparison(&table, 4), Some((0, 7)));
    assert_eq!(period_by_comparison(&table[..10], 4), None);
    // {2}: 0 0 1 1 repeating from 0.
    let table = rules_table(&[2], 100);
    assert_eq!(period_by_comparison(&table, 2), Some((0, 4)));
    assert_eq!(agreeing_tail_start(&[0, 1, 2, 1, 2, 1, 2], 2), 1);
    assert_eq!(agreeing_tail_start(&[0, 1, 2, 3], 1), 3);
    assert_eq!(period_by_comparison(&[], 1), None);
}

#[test]
fn the_compared_period_agrees_with_sg_subtraction_period_on_many_random_sets() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |modulus: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % modulus
    };
    let mut with_preperiod = 0;
    for round in 0..400 {
        let top = [6, 12, 30, 60][round % 4];
        let moves: Vec<u64> = (0..1 + next(5)).map(|_| 1 + next(top)).collect();
        let hashed = sg::subtraction_period(&moves, 1 << 20).unwrap();
        let m = *moves.iter().max().unwrap() as usize;
        let needed = hashed.preperiod + hashed.period + m;
        // Exactly long enough, and much longer: the same answer both times.
        for len in [needed, 3 * needed + 500] {
            let table = rules_table(&moves, len - 1);
            let compared = period_by_comparison(&table, m);
            assert_eq!(
                compared,
                Some((hashed.preperiod, hashed.period)),
                "{moves:?}, {len} values"
            );
        }
        // One value short of the proof: nothing is claimed.
        let table = rules_table(&moves, needed - 2);
        assert_eq!(period_by_comparison(&table, m), None, "{moves:?}");
        with_preperiod += usize::from(hashed.preperiod > 0);
    }
    assert!(with_preperiod > 10, "too few sets with a preperiod");
}

#[test]
fn rules_only_values_use_the_table_then_the_compared_period() {
    let moves = [2, 5];
    let direct = RulesOnlyValues::for_heaps(|u| rules_table(&moves, u), &moves, 40, 100).unwrap();
    assert!(direct.period.is_none());
    let far = RulesOnlyValues::for_heaps(|u| rules_table(&moves, u), &moves, 1 << 60, 100);
    let far = far.unwrap();
    assert_eq!(far.period, Some((0, 7)));
    let table = rules_table(&moves, 40);
    for heap in 0..=40u64 {
        assert_eq!(far.at(heap), table[heap as usize]);
        assert_eq!(far.at(heap + (7 << 50)), table[heap as usize], "{heap}");
    }
    // A take as large as the reach leaves no room for a proof.
    let hopeless = [1, 100];
    assert!(
        RulesOnlyValues::for_heaps(|u| rules_table(&hopeless, u), &hopeless, 101, 100).is_none()
    );
    assert!(beyond_rules_only_reach(101, 100).contains("g(0..=100)"));
}

#[test]
fn huge_heaps_use_the_period_and_hopeless_sets_are_refused() {
    let values = SubtractionValues::for_heaps(&[1, 3, 4], 1_000_000_000_000_000_000).unwrap();
    assert!(matches!(values, SubtractionValues::Periodic(_)));
    // 10^18 = 7 * 142857142857142857 + 1, and g(1) = 1 for {1, 3, 4}.
    assert_eq!(values.at(1_000_000_000_000_000_000), 1);
    let small = SubtractionValues::for_heaps(&[1, 3, 4], 8).unwrap();
    assert_eq!(
        (0..=8).map(|h| small.at(h)).collect::<Vec<_>>(),
        [0, 1, 0, 1, 2, 3, 2, 0, 1]
    );
    // A move as large as the whole search window leaves no room to see a repetition.
    let far = PERIOD_SEARCH_LIMIT as u64;
    assert!(SubtractionValues::for_heaps(&[1, far], DIRECT_TABLE_LIMIT + 1).is_none());
}
