//! What `simulate`'s figures say about who played them, and the HTML pages:
//! the JSON's `"ai"`, the warning of random play, the comparison's page
//! (`--versus-cards … --report`), the page of a sharded run (`merge …
//! --report`, byte-identical to one process's), and each card's cost and type.
//! (The pages' script runs in a real browser in `report_browser.rs`.)

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{scratch_dir as scratch, text};

/// `grimoire ARGS…`, without colour, whatever it exits with.
fn grimoire(args: &[&str]) -> Output {
    common::run_in(args, "", None)
}

/// `grimoire ARGS…`, which must succeed: its standard output.
fn succeeds(args: &[&str]) -> String {
    let out = grimoire(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// `simulate` with `args` and `--report PAGE` into `dir`: the page's text.
fn page(dir: &Path, name: &str, args: &[&str]) -> String {
    let path = dir.join(name);
    let path_text = path.to_string_lossy().into_owned();
    let out = grimoire(&[&["simulate"], args, &["--report", &path_text]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!("report written to {path_text}")),
        "{}",
        text(&out.stderr)
    );
    std::fs::read_to_string(&path).expect("the page")
}

/// The bundled Arcomage deck copied into `dir`, Dragon's cost 25 made 15:
/// a deck B that differs in one card.
fn cheaper_dragon(dir: &Path) -> PathBuf {
    let deck = dir.join("cheaper-dragon");
    std::fs::create_dir_all(&deck).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/arcomage");
    for file in ["beasts.edn", "bricks.edn", "gems.edn"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let text = text.replace(
            "{:card \"Dragon\" :type :beasts :cost 25",
            "{:card \"Dragon\" :type :beasts :cost 15",
        );
        std::fs::write(deck.join(file), text).unwrap();
    }
    deck
}

#[test]
fn the_json_names_each_seats_computer_player() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = succeeds(
            &[
                &["simulate", "arcomage", "--games", "6"],
                args,
                &["--format", "json"],
            ]
            .concat(),
        );
        serde_json::from_str(&out).expect("JSON")
    };
    let mixed = json(&["--ai", "greedy", "--ai", "random"]);
    assert_eq!(mixed["ai"], serde_json::json!(["greedy", "random"]));
    // Said next to the seed, before the seats' figures.
    let keys: Vec<&String> = mixed.as_object().unwrap().keys().collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
    assert!(at("seed") < at("ai") && at("ai") < at("seats"), "{keys:?}");
    // Without --ai, every seat is random, and the JSON says so.
    assert_eq!(json(&[])["ai"], serde_json::json!(["random", "random"]));
    // One --ai serves every seat.
    assert_eq!(
        json(&["--ai", "greedy"])["ai"],
        serde_json::json!(["greedy", "greedy"])
    );
}

#[test]
fn a_comparison_names_its_computer_players_in_json_and_text() {
    let dir = scratch("report-versus-ai");
    let deck = cheaper_dragon(&dir);
    let deck = deck.to_str().unwrap();
    let run = [
        "simulate",
        "arcomage",
        "--games",
        "4",
        "--ai",
        "greedy",
        "--ai",
        "random",
        "--versus-cards",
        deck,
    ];
    let v: serde_json::Value =
        serde_json::from_str(&succeeds(&[&run[..], &["--format", "json"]].concat())).expect("JSON");
    assert_eq!(v["ai"], serde_json::json!(["greedy", "random"]));
    let human = succeeds(&run);
    let head = human.lines().next().unwrap_or_default();
    assert_eq!(
        head,
        "arcomage · 4 games each · seed 1 · p1 greedy vs p2 random · the same seeds with two decks"
    );
}

#[test]
fn simulate_help_states_what_ai_defaults_to() {
    let help = succeeds(&["simulate", "--help"]);
    let ai = help
        .split("--ai <AI>")
        .nth(1)
        .and_then(|rest| rest.split("\n      --").next())
        .expect("--ai in --help");
    assert!(ai.contains("default: random for every seat"), "{ai}");
}

#[test]
fn the_page_names_the_players_and_warns_only_of_random_play() {
    let dir = scratch("report-players");
    let run = ["arcomage", "--games", "4", "--seed", "2"];
    let warning = "id=\"random-warning\"";
    // Both seats random (the default): the warning, and how to do better.
    let random = page(&dir, "random.html", &run);
    assert!(random.contains(warning), "{random}");
    assert!(random.contains("Computer players: p1 <b>random</b>, p2 <b>random</b>."));
    assert!(random.contains("<code>--ai</code> defaults to random for every seat"));
    assert!(random.contains("Simulate again with <code>--ai greedy</code>"));
    // One seat random is enough to mislead.
    let mixed = page(
        &dir,
        "mixed.html",
        &[&run[..], &["--ai", "greedy", "--ai", "random"]].concat(),
    );
    assert!(mixed.contains(warning));
    assert!(mixed.contains("Computer players: p1 <b>greedy</b>, p2 <b>random</b>."));
    // No seat random: no warning, the players and the default still said.
    let greedy = page(
        &dir,
        "greedy.html",
        &[&run[..], &["--ai", "greedy"]].concat(),
    );
    assert!(!greedy.contains(warning), "{greedy}");
    assert!(!greedy.contains("can mislead"));
    assert!(greedy.contains("Computer players: p1 <b>greedy</b>, p2 <b>greedy</b>."));
    assert!(greedy.contains("<code>--ai</code> defaults to random for every seat"));
    // In the header, not only the title.
    let header = &greedy[greedy.find("<header>").unwrap()..greedy.find("</header>").unwrap()];
    assert!(header.contains("Computer players"), "{header}");
    // Whoever played, the page says which player to balance with and what each costs.
    for page in [&random, &greedy] {
        let advice = page
            .split("id=\"player-advice\">")
            .nth(1)
            .and_then(|rest| rest.split("</p>").next())
            .expect("the advice");
        for said in [
            "rank the cards with <code>greedy</code>",
            "confirm a verdict with <code>mcts</code>",
            "games a second",
            "docs/PLAYERS.md",
        ] {
            assert!(advice.contains(said), "{said}: {advice}");
        }
    }
    // A tree-search seat is named with its budget.
    let mcts = page(
        &dir,
        "mcts.html",
        &[&run[..2], &["2", "--ai", "mcts:20", "--ai", "greedy"]].concat(),
    );
    assert!(mcts.contains("Computer players: p1 <b>mcts:20:random:8</b>, p2 <b>greedy</b>."));
}

#[test]
fn versus_cards_writes_the_comparisons_page_with_both_decks() {
    let dir = scratch("report-versus");
    let deck = cheaper_dragon(&dir);
    let deck = deck.to_str().unwrap();
    let run = [
        "arcomage",
        "--games",
        "300",
        "--seed",
        "4",
        "--versus-cards",
        deck,
    ];
    let html = page(&dir, "versus.html", &run);
    // Both decks and who played, in the header.
    assert!(html.contains("<p class=\"deck\">A deck: the bundled arcomage deck, 102 cards</p>"));
    assert!(
        html.contains(&format!("<p class=\"deck\">B deck: {deck}, 102 cards</p>")),
        "{html}"
    );
    assert!(html.contains("Computer players: p1 <b>random</b>, p2 <b>random</b>."));
    assert!(html.contains("id=\"random-warning\""));
    // The seats' rates with each deck and their changes, the cards' changes charted.
    for part in [
        "aria-label=\"seat win rates, deck A and deck B\"",
        "aria-label=\"change in in-hand win rate\"",
        "<td>mean length</td>",
    ] {
        assert!(html.contains(part), "{part}");
    }
    // Every card a row, as the text's table has; Dragon's cost as it changed.
    assert_eq!(html.matches("<tr data-find=").count(), 102);
    assert!(
        html.contains(
            "<td>Dragon</td><td data-v=\"15\">25 → 15</td><td class=\"text\">beasts</td>"
        ),
        "{html}"
    );
    // Each change with its interval, as `--versus-cards` prints it.
    let human = succeeds(&[&["simulate"], &run[..]].concat());
    let dragon = human
        .lines()
        .find(|l| l.starts_with("Dragon "))
        .expect("Dragon's row");
    let words: Vec<&str> = dragon.split_whitespace().collect();
    let change = format!("{} {}", words[3], words[4]);
    assert!(html.contains(&format!(">{change}</td>")), "{change}");
    // The text the command prints is the same with or without a page.
    let again = dir.join("again.html");
    let with_page = grimoire(
        &[
            &["simulate"],
            &run[..],
            &["--report", again.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(text(&with_page.stdout), human);
}

/// Plays every share of `run` (`of` of them) into `dir`: the files.
fn shards(dir: &Path, run: &[&str], of: u64) -> Vec<String> {
    (1..=of)
        .map(|k| {
            let shard = format!("{k}/{of}");
            let json =
                succeeds(&[&["simulate"], run, &["--shard", &shard, "--format", "json"]].concat());
            let file = dir.join(format!("shard-{k}.json"));
            std::fs::write(&file, json).unwrap();
            file.to_string_lossy().into_owned()
        })
        .collect()
}

#[test]
fn merge_writes_the_page_one_process_writes() {
    let dir = scratch("report-merge");
    let brawl = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/triggers/rules/brawl.edn");
    let brawl = brawl.to_str().unwrap();
    let solo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solo/rules/solo.edn");
    let solo = solo.to_str().unwrap();
    for (name, run) in [
        (
            "arcomage",
            vec![
                "arcomage", "--games", "300", "--seed", "9", "--ai", "greedy", "--ai", "random",
            ],
        ),
        (
            "brawl",
            vec![brawl, "--games", "30", "--seed", "3", "--sort", "card"],
        ),
        (
            "solo",
            vec![solo, "--games", "40", "--seed", "5", "--ai", "greedy"],
        ),
    ] {
        let whole = page(&dir, &format!("{name}-whole.html"), &run);
        let files = shards(&dir, &run, 3);
        let merged_page = dir.join(format!("{name}-merged.html"));
        let mut args = vec!["merge"];
        args.extend(files.iter().map(String::as_str));
        let stdout = succeeds(&[&args[..], &["--report", merged_page.to_str().unwrap()]].concat());
        // The figures printed as without --report; the page as one process wrote it.
        assert_eq!(stdout, succeeds(&args), "{name}");
        let merged = std::fs::read_to_string(&merged_page).expect("merge's page");
        assert!(
            merged == whole,
            "{name}: the merged page differs from one process's"
        );
        assert!(merged.contains("<h2>Seat win rates</h2>"));
    }
}

#[test]
fn merge_checks_the_pages_file_before_it_reads_the_shards() {
    let out = grimoire(&[
        "merge",
        "no-such-shard.json",
        "--report",
        "/nonexistent-dir/r.html",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("/nonexistent-dir/r.html"),
        "{}",
        text(&out.stderr)
    );
    // A shard's page is written by the merge, and the refusal says so.
    let out = grimoire(&[
        "simulate", "arcomage", "--games", "10", "--shard", "1/2", "--report", "r.html",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("grimoire merge SHARDS… --report FILE.html"),
        "{}",
        text(&out.stderr)
    );
}

/// The cells of `card`'s row in a page's table, from its name on.
fn row<'h>(html: &'h str, card: &str) -> &'h str {
    let at = html
        .find(&format!("<td>{card}</td>"))
        .unwrap_or_else(|| panic!("no row of {card}"));
    let end = html[at..].find("</tr>").map_or(html.len(), |e| at + e);
    &html[at..end]
}

#[test]
fn each_cards_cost_and_type_are_in_the_table() {
    let dir = scratch("report-costs");
    let arcomage = page(&dir, "arcomage.html", &["arcomage", "--games", "4"]);
    assert!(
        arcomage
            .contains("<th data-col=\"cost\" data-num>cost</th><th data-col=\"type\">type</th>")
    );
    // Paid in beasts, gems or bricks: the card's :type.
    assert!(
        row(&arcomage, "Dragon")
            .starts_with("<td>Dragon</td><td data-v=\"25\">25</td><td class=\"text\">beasts</td>")
    );
    assert!(row(&arcomage, "Mad Cow Disease").starts_with(
        "<td>Mad Cow Disease</td><td data-v=\"0\">0</td><td class=\"text\">beasts</td>"
    ));
    assert!(row(&arcomage, "Diamond").contains("<td class=\"text\">gems</td>"));
    // Cards of kinds, with abilities that cost too: the kind, and every cost.
    let brawl = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/triggers/rules/brawl.edn");
    let brawl = page(
        &dir,
        "brawl.html",
        &[brawl.to_str().unwrap(), "--games", "4"],
    );
    assert!(row(&brawl, "Sorcerer").starts_with(
        "<td>Sorcerer</td><td data-v=\"3\">3; ping 1</td><td class=\"text\">minion · mana</td>"
    ));
    assert!(row(&brawl, "Shrine").starts_with(
        "<td>Shrine</td><td data-v=\"2\">2; pray 2</td><td class=\"text\">minion · mana</td>"
    ));
    assert!(
        row(&brawl, "Peek").starts_with(
            "<td>Peek</td><td data-v=\"0\">0</td><td class=\"text\">spell · mana</td>"
        )
    );
    // Cards that cost nothing and are paid in nothing: said, and sorted last.
    let skills = page(&dir, "skills.html", &["skills", "--games", "4"]);
    assert!(
        row(&skills, "Strike")
            .starts_with("<td>Strike</td><td data-v=\"\">—</td><td class=\"text\">—</td>")
    );
    // The filter searches a card's name and type.
    assert!(brawl.contains("<tr data-find=\"sorcerer minion · mana\">"));
}

#[test]
fn a_solo_fights_page_names_its_encounter_and_shows_losses() {
    let dir = scratch("report-solo");
    let solo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solo/rules/solo.edn");
    let run = [solo.to_str().unwrap(), "--games", "30", "--seed", "2"];
    let html = page(&dir, "solo.html", &run);
    let json: serde_json::Value = serde_json::from_str(&succeeds(
        &[&["simulate"], &run[..], &["--format", "json"]].concat(),
    ))
    .expect("JSON");
    let encounter = json["encounter"].as_str().expect("the encounter");
    assert!(
        html.contains(&format!(
            "<h1>solo · encounter {encounter} · 30 games · seed 2 · p1 random</h1>"
        )),
        "{html}"
    );
    // The seat's wins and its losses, each a bar with its rate.
    let rate = |n: &serde_json::Value| 100.0 * n.as_f64().unwrap() / 30.0;
    let seat = &json["seats"][0];
    for (label, n) in [("p1 won", &seat["wins"]), ("p1 lost", &seat["losses"])] {
        let at = html
            .find(&format!(">{label}</text>"))
            .unwrap_or_else(|| panic!("{label}"));
        let bar = &html[at..html[at..].find('\n').map_or(html.len(), |e| at + e)];
        assert!(
            bar.contains(&format!(">{:.1}%</text>", rate(n))),
            "{label}: {bar}"
        );
    }
    // A rule set where no seat loses shows the wins alone, as before.
    let arcomage = page(&dir, "arcomage.html", &["arcomage", "--games", "4"]);
    assert!(arcomage.contains(">p1</text>") && !arcomage.contains(" lost</text>"));
}
