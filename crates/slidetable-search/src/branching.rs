//! The effective branching factor: how bushy a search was, as one number comparable across
//! depths.

/// The effective branching factor `b*` of a search that generated `generated` nodes to find a
/// solution `depth` moves deep: the branching factor a uniform tree of that depth needs to
/// hold as many nodes, `generated + 1 = 1 + b* + b*² + … + b*^depth` (Russell and Norvig,
/// *Artificial Intelligence: A Modern Approach*, §3.6.1). `None` at depth 0, where every
/// factor fits.
///
/// ```
/// use slidetable_search::effective_branching_factor;
///
/// // 1 + 2 + 4 + 8 = 15 nodes in a binary tree of depth 3: 14 generated besides the root.
/// let b = effective_branching_factor(14, 3).unwrap();
/// assert!((b - 2.0).abs() < 1e-9);
/// assert_eq!(effective_branching_factor(5, 0), None);
/// ```
pub fn effective_branching_factor(generated: u64, depth: u32) -> Option<f64> {
    if depth == 0 {
        return None;
    }
    let target = generated as f64 + 1.0;
    // Nodes of a uniform tree of branching b and the given depth, without overflow to inf
    // mattering: the bisection only compares.
    let nodes = |b: f64| (0..=depth).map(|i| b.powi(i as i32)).sum::<f64>();
    // b* lies between 0 (one node) and `generated` (each level at least that wide).
    let (mut low, mut high) = (0.0f64, (generated as f64).max(1.0));
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if nodes(mid) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(0.5 * (low + high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_the_defining_equation() {
        for (generated, depth) in [(1u64, 1u32), (10, 1), (520, 19), (11070, 31), (3, 5)] {
            let b = effective_branching_factor(generated, depth).unwrap();
            let nodes: f64 = (0..=depth).map(|i| b.powi(i as i32)).sum();
            let target = generated as f64 + 1.0;
            assert!(
                ((nodes - target) / target).abs() < 1e-9,
                "{generated} {depth}: {b}"
            );
        }
    }

    #[test]
    fn a_path_with_no_branching_has_factor_one() {
        // A straight line of depth d generates d nodes.
        let b = effective_branching_factor(7, 7).unwrap();
        assert!((b - 1.0).abs() < 1e-9, "{b}");
    }

    #[test]
    fn fewer_nodes_than_the_depth_give_a_factor_below_one() {
        let b = effective_branching_factor(0, 4).unwrap();
        assert!(b.abs() < 1e-9, "{b}");
    }
}
