//! Every example of seed 004's effects.md evaluates as the seed says.

use grimoire::cli::{self, EvalArgs, Format};

fn eval(effects: &str, sets: &[&str]) -> cli::Output {
    cli::eval(&EvalArgs {
        rules: "arcomage".into(),
        effects: effects.into(),
        sets: sets.iter().map(|s| s.to_string()).collect(),
        ..EvalArgs::default()
    })
}

/// The value of `entity.attr` in the JSON state after applying `effects`.
fn value_after(effects: &str, sets: &[&str], entity: &str, attr: &str) -> i64 {
    let out = cli::eval(&EvalArgs {
        rules: "arcomage".into(),
        effects: effects.into(),
        sets: sets.iter().map(|s| s.to_string()).collect(),
        format: Format::Json,
        ..EvalArgs::default()
    });
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).expect("json output");
    json["state"][entity][attr].as_i64().expect("a number")
}

const MINERS: &str = "[{:effected :you :resource :quarry :amount 1}]";
const FOUNDATIONS: &str = "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]";
const MOTHER_LODE: &str =
    "[{:effected :you :resource :quarry :amount [< [:you :quarry] [:other :quarry] 2 1]}]";
const PARITY: &str = "[{:set true :effected :you :resource :magic :amount [< [:you :magic] [:other :magic] [:other :magic] [:you :magic]]} {:set true :effected :other :resource :magic :amount [< [:you :magic] [:other :magic] [:other :magic] [:you :magic]]}]";
const LOGIC_RESOURCE: &str =
    "[{:effected :you :resource [> [:other :wall] 10 :wall :tower] :amount 2}]";

#[test]
fn miners_adds_one_quarry() {
    assert_eq!(value_after(MINERS, &["you.quarry=2"], "you", "quarry"), 3);
    insta::assert_snapshot!(eval(MINERS, &["you.quarry=2"]).stdout);
}

#[test]
fn foundations_gives_six_on_no_wall_and_three_otherwise() {
    assert_eq!(value_after(FOUNDATIONS, &["you.wall=0"], "you", "wall"), 6);
    assert_eq!(value_after(FOUNDATIONS, &["you.wall=4"], "you", "wall"), 7);
    insta::assert_snapshot!(
        "foundations_no_wall",
        eval(FOUNDATIONS, &["you.wall=0"]).stdout
    );
    insta::assert_snapshot!(
        "foundations_wall_4",
        eval(FOUNDATIONS, &["you.wall=4"]).stdout
    );
}

#[test]
fn mother_lode_takes_both_branches() {
    // Your quarry below the enemy's: +2.
    assert_eq!(
        value_after(
            MOTHER_LODE,
            &["you.quarry=1", "other.quarry=3"],
            "you",
            "quarry"
        ),
        3
    );
    // Equal or above: +1.
    assert_eq!(
        value_after(
            MOTHER_LODE,
            &["you.quarry=3", "other.quarry=3"],
            "you",
            "quarry"
        ),
        4
    );
    assert_eq!(
        value_after(
            MOTHER_LODE,
            &["you.quarry=5", "other.quarry=3"],
            "you",
            "quarry"
        ),
        6
    );
}

#[test]
fn parity_sets_both_players_to_the_highest_magic() {
    for (you, other) in [(2, 7), (7, 2), (4, 4)] {
        let sets = [format!("you.magic={you}"), format!("other.magic={other}")];
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let high = you.max(other);
        assert_eq!(value_after(PARITY, &sets, "you", "magic"), high);
        assert_eq!(value_after(PARITY, &sets, "other", "magic"), high);
    }
    insta::assert_snapshot!(eval(PARITY, &["you.magic=2", "other.magic=7"]).stdout);
}

#[test]
fn resource_chosen_by_logic() {
    // Enemy wall above 10: the wall grows; otherwise the tower.
    assert_eq!(
        value_after(
            LOGIC_RESOURCE,
            &["other.wall=11", "you.wall=1"],
            "you",
            "wall"
        ),
        3
    );
    assert_eq!(
        value_after(
            LOGIC_RESOURCE,
            &["other.wall=11", "you.tower=20"],
            "you",
            "tower"
        ),
        20
    );
    assert_eq!(
        value_after(
            LOGIC_RESOURCE,
            &["other.wall=10", "you.tower=20"],
            "you",
            "tower"
        ),
        22
    );
    assert_eq!(
        value_after(
            LOGIC_RESOURCE,
            &["other.wall=10", "you.wall=1"],
            "you",
            "wall"
        ),
        1
    );
}

#[test]
fn damage_hits_the_wall_first_then_the_tower() {
    let damage = |n: i64, wall: i64, tower: i64| {
        let effects = format!("[{{:effected :other :resource :damage :amount {n}}}]");
        let sets = [format!("other.wall={wall}"), format!("other.tower={tower}")];
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        (
            value_after(&effects, &sets, "other", "wall"),
            value_after(&effects, &sets, "other", "tower"),
        )
    };
    assert_eq!(damage(5, 10, 20), (5, 20));
    assert_eq!(damage(10, 10, 20), (0, 20));
    assert_eq!(damage(12, 10, 20), (0, 18));
    assert_eq!(damage(50, 3, 20), (0, 0));
    assert_eq!(damage(-4, 3, 20), (3, 20));
    insta::assert_snapshot!(eval("[{:effected :other :resource :damage :amount 12}]", &[]).stdout);
}

#[test]
fn values_never_go_below_zero() {
    assert_eq!(
        value_after(
            "[{:effected :you :resource :bricks :amount -8}]",
            &["you.bricks=3"],
            "you",
            "bricks"
        ),
        0
    );
}

#[test]
fn set_replaces_instead_of_adding() {
    assert_eq!(
        value_after(
            "[{:effected :you :resource :wall :amount 4 :set true}]",
            &["you.wall=9"],
            "you",
            "wall"
        ),
        4
    );
    assert_eq!(
        value_after(
            "[{:effected :you :resource :wall :amount 4 :set false}]",
            &["you.wall=9"],
            "you",
            "wall"
        ),
        13
    );
}

#[test]
fn misspelled_resource_suggests_quarry() {
    let out = eval("[{:effected :you :resource :quary :amount 1}]", &[]);
    assert_eq!(out.code, 1);
    insta::assert_snapshot!(out.stderr);
}
