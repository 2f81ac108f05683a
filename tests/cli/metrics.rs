//! `simulate` of a rule set with declared metrics (issue 32): the metrics
//! block and per-card tables, `--sort` by a metric, the CSV's and JSON's
//! metric fields, `--versus-cards` moving a metric significantly, and the
//! HTML report's metrics section.

use crate::common;

use common::text;

const BOUT: &str = "tests/data/metrics/rules/bout.edn";
const STRONGER: &str = "tests/data/metrics/versus/bout";

/// `grimoire simulate BOUT ARGS…`, its standard output; it must succeed.
fn simulate(args: &[&str]) -> String {
    let out = common::run_in(&[&["simulate", BOUT], args].concat(), "", None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = simulate(&[args, &["--format", "json"]].concat());
    serde_json::from_str(&out).expect("json")
}

#[test]
fn the_table_shows_each_metric_overall_per_seat_and_per_card() {
    let out = simulate(&["--games", "400", "--seed", "2"]);
    let block = out
        .split("\n\n")
        .find(|b| b.starts_with("metric "))
        .expect("a metrics block");
    let lines: Vec<&str> = block.lines().collect();
    assert!(
        lines[0].contains("all seats") && lines[0].contains("p1") && lines[0].contains("p2"),
        "{block}"
    );
    let names: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "health-left",
            "damage-taken",
            "turns-taken",
            "turns",
            "cards-drawn"
        ]
    );
    // The turn count is the mean length, to the printed digits.
    let length: f64 = out
        .split("mean length: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .expect("the mean length");
    let turns: f64 = lines[4].split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!((turns - length).abs() <= 0.051, "{out}");
    let figures = json(&["--games", "400", "--seed", "2"]);
    assert_eq!(figures["metrics"]["turns"]["mean"], figures["mean_turns"]);
    // One per-card table a metric, Haymaker's improvement on health significant.
    let table = out
        .split("\n\nhealth-left ")
        .nth(1)
        .expect("a per-card table");
    let haymaker = table.lines().find(|l| l.starts_with("Haymaker")).unwrap();
    assert!(haymaker.trim_end().ends_with('*'), "{haymaker}");
    assert!(
        out.trim_end().ends_with("* when its interval leaves out 0"),
        "{out}"
    );
}

#[test]
fn a_metric_sorts_the_cards_by_its_improvement() {
    let by = |sort: &str| -> Vec<String> {
        json(&["--games", "300", "--seed", "1", "--sort", sort])["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["card"].as_str().unwrap().to_string())
            .collect()
    };
    let health = by("health-left");
    assert_eq!(health, by("metric:health-left"));
    // Haymaker does most for the health left, and least for the damage taken.
    assert_eq!(health[0], "Haymaker");
    assert_eq!(
        by("damage-taken").last().map(String::as_str),
        Some("Haymaker")
    );
    let figures = json(&["--games", "300", "--seed", "1", "--sort", "health-left"]);
    let improvements: Vec<f64> = figures["metrics"]["health-left"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["improvement"]["value"].as_f64().unwrap())
        .collect();
    assert!(
        improvements.windows(2).all(|w| w[0] >= w[1]),
        "{improvements:?}"
    );
    // A name that is neither a column nor a metric lists both.
    let out = common::run_in(&["simulate", BOUT, "--sort", "health"], "", None);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("--sort health: not a column")
            && said.contains("the metrics are health-left, damage-taken"),
        "{said}"
    );
}

#[test]
fn json_and_csv_carry_every_metric() {
    let figures = json(&["--games", "50", "--seed", "3"]);
    let metrics = figures["metrics"].as_object().expect("an object by name");
    assert_eq!(metrics.len(), 5);
    let health = &figures["metrics"]["health-left"];
    assert_eq!(health["doc"], "the seat's health at the end");
    for key in ["mean", "low", "high", "n"] {
        assert!(health[key].is_number(), "{key}: {health}");
    }
    assert_eq!(health["n"], 50);
    assert_eq!(health["seats"][1]["seat"], "p2");
    let card = &health["cards"][0];
    assert_eq!(card["card"], figures["cards"][0]["card"]);
    assert_eq!(
        card["in_hand"]["n"].as_u64().unwrap(),
        figures["cards"][0]["in_hand"].as_u64().unwrap()
    );
    for key in ["in_hand", "played", "not_seen"] {
        assert!(card[key]["mean"].is_number(), "{key}");
    }
    assert!(card["improvement"]["significant"].is_boolean());
    // Fewer than 30 games: Student's t, wider than the normal interval.
    let few = json(&["--games", "10", "--seed", "3"]);
    let m = &few["metrics"]["turns"];
    let half = m["high"].as_f64().unwrap() - m["mean"].as_f64().unwrap();
    let spread = few["metrics"]["turns"]["seats"][0]["high"]
        .as_f64()
        .unwrap()
        - m["mean"].as_f64().unwrap();
    assert!((half - spread).abs() < 1e-9 && half > 0.0);

    let csv = simulate(&["--games", "50", "--seed", "3", "--format", "csv"]);
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert!(head.starts_with(&["card", "in_hand"]));
    for column in [
        "metric:health-left:in_hand",
        "metric:health-left:in_hand_low",
        "metric:health-left:not_seen_high",
        "metric:cards-drawn:improvement",
        "metric:cards-drawn:improvement_significant",
    ] {
        assert!(head.contains(&column), "{column}");
    }
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.split(',').count() == head.len()),
        "{csv}"
    );
}

#[test]
fn a_stronger_card_moves_a_metric_significantly() {
    let args = ["--games", "1000", "--seed", "1", "--versus-cards", STRONGER];
    let compared = json(&args);
    // Strike deals 4 instead of 2: games are shorter, and each seat takes fewer turns.
    for name in ["turns", "turns-taken"] {
        let m = &compared["metrics"][name];
        assert_eq!(m["significant"], true, "{name}: {m}");
        assert!(m["change"].as_f64().unwrap() < -1.0, "{name}: {m}");
        assert!(m["high"].as_f64().unwrap() < 0.0, "{name}: {m}");
        assert_eq!(m["seats"].as_array().map(Vec::len), Some(2));
    }
    let turns = &compared["metrics"]["turns"];
    let length = &compared["mean_turns"];
    assert!((turns["change"].as_f64().unwrap() - length["change"].as_f64().unwrap()).abs() < 1e-9);
    let strike = compared["metrics"]["turns"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["card"] == "Strike")
        .unwrap();
    assert_eq!(strike["significant"], true, "{strike}");

    let human = simulate(&args);
    let line = human
        .lines()
        .find(|l| l.starts_with("turns "))
        .expect("the turns row");
    assert!(line.ends_with('*'), "{human}");
    let csv = simulate(&[&args[..], &["--format", "csv"]].concat());
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = head
        .iter()
        .position(|c| *c == "metric:turns:change_significant")
        .expect("column");
    let row = csv.lines().find(|l| l.starts_with("Strike,")).unwrap();
    assert_eq!(row.split(',').nth(at), Some("true"), "{csv}");
}

#[test]
fn the_report_has_a_metrics_section() {
    let dir = common::scratch_dir("metrics-report");
    let page = dir.join("bout.html");
    simulate(&["--games", "100", "--report", &page.to_string_lossy()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<section id=\"metrics\">"));
    assert!(html.contains("<h3>health-left by card</h3>"));
    assert!(html.contains("title=\"the seat's health at the end\""));
    // The comparison's page compares them.
    let versus = dir.join("versus.html");
    simulate(&[
        "--games",
        "100",
        "--versus-cards",
        STRONGER,
        "--report",
        &versus.to_string_lossy(),
    ]);
    let html = std::fs::read_to_string(&versus).unwrap();
    assert!(html.contains("<section id=\"metrics\">") && html.contains("<tr><td>turns</td>"));
    // A rule set without metrics has none.
    let plain = dir.join("arcomage.html");
    let out = common::run_in(
        &[
            "simulate",
            "arcomage",
            "--games",
            "20",
            "--report",
            &plain.to_string_lossy(),
        ],
        "",
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !std::fs::read_to_string(&plain)
            .unwrap()
            .contains("id=\"metrics\"")
    );
}
