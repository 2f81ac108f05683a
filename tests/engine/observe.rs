//! The learning agent's interface (`engine::observe`, issue 30 part 3): a
//! fixed action space whose indices mean the same thing in every game, and
//! an observation that holds what the seat may see and nothing else.

use grimoire::check::defs::Card;
use grimoire::check::rules::{BUNDLED, RuleSet};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::observe::{
    self, ActionSpace, MAX_ACTIONS, ObsLayout, ObserveError, Ranks, SpaceError,
};
use grimoire::engine::{Ability, Action, Game, Log};
use grimoire::files;
use grimoire::ids::EntityId;

/// A bundled rule set and its deck, as `grimoire.env` loads them.
fn load(name: &str) -> (RuleSet, Vec<Card>) {
    let mut rules = files::load_rules(name).expect("rules");
    let deck = files::load_deck(&mut rules, &[]).expect("deck");
    (rules, deck.cards)
}

/// What an agent holds beside a game.
struct Agent {
    space: ActionSpace,
    layout: ObsLayout,
    ranks: Ranks,
}

fn agent(rules: &RuleSet, deck: &[Card]) -> Agent {
    let space = ActionSpace::new(rules, deck).expect("an action space");
    let layout = ObsLayout::new(rules, deck, &space);
    Agent {
        space,
        layout,
        ranks: Ranks::new(rules),
    }
}

fn observe(a: &Agent, game: &Game<'_>, seat: usize) -> Vec<i64> {
    let mut out = vec![0; a.layout.len()];
    a.layout
        .encode(game, &a.ranks, seat, &mut out)
        .expect("observed");
    out
}

/// The numbers of field `name`.
fn field<'o>(a: &Agent, obs: &'o [i64], name: &str) -> &'o [i64] {
    let f = a
        .layout
        .field(name)
        .unwrap_or_else(|| panic!("no field {name}"));
    &obs[f.offset..f.offset + f.len()]
}

#[test]
fn arcomage_indices_are_hand_slots_then_discards() {
    let (rules, deck) = load("arcomage");
    let a = agent(&rules, &deck);
    let most_drawn = deck.iter().map(|c| usize::from(c.play.draw)).max().unwrap();
    let h = 6 + most_drawn;
    assert_eq!(a.space.hand_slots(), h);
    assert_eq!(a.space.len(), 2 * h);
    assert_eq!(
        a.space.describe(&rules, 3).as_deref(),
        Some("play hand slot 3")
    );
    assert_eq!(
        a.space.describe(&rules, h + 2).as_deref(),
        Some("discard hand slot 2")
    );
    assert_eq!(a.space.describe(&rules, 2 * h), None);
    let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    assert_eq!(a.space.action_at(&game, &a.ranks, 3), Some(game.play(3)));
    assert_eq!(
        a.space.action_at(&game, &a.ranks, h + 2),
        Some(game.discard(2))
    );
    // The card a slot holds is named in the game's own words.
    let third = &deck[game.hand()[3].index()].name;
    assert_eq!(
        a.space.describe_in(&game, &a.ranks, 3),
        Some(format!("play {third} (slot 3)"))
    );
}

/// Plays `games` games of each bundled rule set with `policy`, checking at
/// every decision that the mask is the legal actions, index for index.
fn masks_match_the_legal_actions(name: &str, games: u64, policy: Policy) {
    let (rules, deck) = load(name);
    masks_match_the_legal_actions_in(&rules, &deck, games, policy);
}

/// [`masks_match_the_legal_actions`] in `rules` with `deck`: every legal
/// action met, as the index each had.
fn masks_match_the_legal_actions_in(
    rules: &RuleSet,
    deck: &[Card],
    games: u64,
    policy: Policy,
) -> Vec<usize> {
    let name = rules.name.as_str();
    let mut a = agent(rules, deck);
    let mut game = Game::new(rules, deck, 1, Log::Skip).unwrap();
    let mut ai = Ai::new();
    let (mut legal, mut mask) = (Vec::new(), vec![0u8; a.space.len()]);
    let mut met = Vec::new();
    for seed in 0..games {
        game.reset(seed);
        a.ranks.reset();
        a.ranks.update(&game);
        while game.outcome().is_none() {
            let m = a.space.mask(&mut game, &a.ranks, &mut legal, &mut mask);
            assert_eq!(m.overflowed, 0, "{name} seed {seed}: {legal:?}");
            assert_eq!(
                m.legal,
                legal.len(),
                "{name}: two legal actions share an index"
            );
            assert_eq!(mask.iter().filter(|&&b| b == 1).count(), legal.len());
            for &action in &legal {
                let i = a.space.index_of(&game, &a.ranks, action).expect("an index");
                assert_eq!(mask[i], 1);
                assert_eq!(
                    a.space.action_at(&game, &a.ranks, i),
                    Some(action),
                    "{name} {i}"
                );
                assert!(a.space.describe_in(&game, &a.ranks, i).is_some());
                met.push(i);
            }
            let Some(action) = ai.choose(&mut game, policy) else {
                break;
            };
            game.act(action).expect("a legal action");
            a.ranks.update(&game);
        }
    }
    assert!(!met.is_empty(), "{name}");
    met
}

#[test]
fn every_legal_action_of_every_bundled_rule_set_has_its_own_index() {
    for (name, _) in BUNDLED {
        masks_match_the_legal_actions(name, 20, Policy::Random);
    }
}

#[test]
fn tactics_indices_name_units_and_cells_by_rank() {
    let (rules, deck) = load("tactics");
    let a = agent(&rules, &deck);
    let texts: Vec<String> = (0..a.space.len())
        .map(|i| a.space.describe(&rules, i).expect("a meaning"))
        .collect();
    // No cards: the first index is the first action's first actor and target.
    assert_eq!(texts[0], "hero: move cell-0-0");
    assert!(texts.contains(&"foe-minion: attack minion".to_string()));
    assert!(texts.contains(&"hero: destroy-obstacle east-rock".to_string()));
    // Tiles are spawned: ranks past the setup's are named by rank.
    assert!(texts.contains(&"p2: spawn-buff-tile tile rank 15".to_string()));
    assert!(!texts.iter().any(|t| t.contains("tile rank 16")));
    let unique: std::collections::HashSet<&String> = texts.iter().collect();
    assert_eq!(unique.len(), texts.len(), "two indices say the same");
    // Its first meaning holds in every game: the hero moving to cell 0,0.
    for seed in [1, 2, 3] {
        let game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        assert_eq!(
            a.space.describe_in(&game, &a.ranks, 0).as_deref(),
            Some("hero: move cell-0-0")
        );
    }
}

#[test]
fn tbwg_options_vary_fastest_within_an_action() {
    let (rules, deck) = load("tbwg");
    let a = agent(&rules, &deck);
    let texts: Vec<String> = (0..a.space.len())
        .map(|i| a.space.describe(&rules, i).unwrap())
        .collect();
    let at = texts
        .iter()
        .position(|t| t.starts_with("pain: ") && t.ends_with(" dio (head)"))
        .expect("an aimed action");
    let action = texts[at].trim_end_matches(" dio (head)");
    assert_eq!(texts[at + 1], format!("{action} dio (body)"));
    assert_eq!(texts[at + 2], format!("{action} dio (arms)"));
    assert_eq!(texts[at + 3], format!("{action} dio (legs)"));
}

#[test]
fn a_spawned_entity_keeps_its_rank_after_it_leaves_and_the_next_takes_the_next() {
    let (rules, deck) = load("tactics");
    let mut a = agent(&rules, &deck);
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    a.ranks.update(&game);
    let tile = rules.kind("tile").unwrap();
    let first = game.add_entity("tile").unwrap();
    a.ranks.update(&game);
    assert_eq!(a.ranks.rank(first), Some((tile, 0)));
    game.remove_entity(first);
    let second = game.add_entity("tile").unwrap();
    a.ranks.update(&game);
    assert_eq!(a.ranks.rank(first), Some((tile, 0)));
    assert_eq!(a.ranks.rank(second), Some((tile, 1)));
    assert_eq!(a.ranks.entity(tile, 1), Some(second));
    // A new game starts from the setup's ranks.
    game.reset(2);
    a.ranks.reset();
    a.ranks.update(&game);
    assert_eq!(a.ranks.entity(tile, 0), None);
    let again = game.add_entity("tile").unwrap();
    a.ranks.update(&game);
    assert_eq!(a.ranks.rank(again), Some((tile, 0)));
}

/// Every bundled rule set, and the fixture of cards in zones.
fn every_rule_set() -> Vec<(RuleSet, Vec<Card>)> {
    let mut all: Vec<_> = BUNDLED.iter().map(|(name, _)| load(name)).collect();
    all.push(skirmish());
    all
}

#[test]
fn the_fields_tile_the_observation_within_their_bounds() {
    for (rules, deck) in every_rule_set() {
        let name = rules.name.as_str();
        let a = agent(&rules, &deck);
        let mut next = 0;
        for f in a.layout.fields() {
            assert_eq!(f.offset, next, "{name} {}", f.name);
            next += f.len();
            assert!(f.low < f.high, "{name} {}", f.name);
        }
        assert_eq!(next, a.layout.len(), "{name}");
        assert!(
            a.layout
                .low()
                .iter()
                .zip(a.layout.high())
                .all(|(l, h)| l < h)
        );
        let names: Vec<&str> = a.layout.fields().iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names[..3], ["seat", "turn", names[2]], "{name}");
        assert!(names.contains(&"entities"), "{name}");
    }
}

#[test]
fn observations_stay_within_the_bounds_through_whole_games() {
    for (rules, deck) in every_rule_set() {
        let name = rules.name.as_str();
        let mut a = agent(&rules, &deck);
        let mut ai = Ai::new();
        for seed in 0..10 {
            let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
            a.ranks.update(&game);
            while game.outcome().is_none() {
                let Some(action) = ai.choose(&mut game, Policy::Random) else {
                    break;
                };
                for seat in 0..rules.seats.len() {
                    let obs = observe(&a, &game, seat);
                    for (i, v) in obs.iter().enumerate() {
                        assert!(
                            (a.layout.low()[i]..=a.layout.high()[i]).contains(v),
                            "{name}: {v} at {i}"
                        );
                    }
                    assert_eq!(field(&a, &obs, "seat")[seat], 1);
                }
                game.act(action).unwrap();
                a.ranks.update(&game);
            }
            a.ranks.reset();
        }
    }
}

#[test]
fn the_observers_hand_is_shown_slot_by_slot_and_the_others_only_counted() {
    let (rules, deck) = load("arcomage");
    let a = agent(&rules, &deck);
    let game = Game::new(&rules, &deck, 5, Log::Skip).unwrap();
    let d = deck.len();
    for seat in 0..2 {
        let obs = observe(&a, &game, seat);
        let hand = field(&a, &obs, "zone:hand:me");
        let held = game.hand_of(EntityId::new(seat));
        assert_eq!(held.len(), 6);
        for (slot, card) in held.iter().enumerate() {
            let row = &hand[slot * (d + 2)..(slot + 1) * (d + 2)];
            assert_eq!(row[..d].iter().sum::<i64>(), 1);
            assert_eq!(row[card.index()], 1, "seat {seat} slot {slot}");
            assert_eq!(row[d], deck[card.index()].play.cost);
        }
        // Past the last card, nothing.
        assert!(hand[6 * (d + 2)..].iter().all(|&v| v == 0));
        assert_eq!(field(&a, &obs, "zone:hand:other"), [6]);
        assert_eq!(
            field(&a, &obs, "zone:deck")[0] as usize,
            game.draw_pile_len()
        );
    }
}

#[test]
fn dealing_anew_what_a_seat_cannot_see_leaves_its_observation_unchanged() {
    let (rules, deck) = load("arcomage");
    let mut a = agent(&rules, &deck);
    let mut ai = Ai::new();
    let mut game = Game::new(&rules, &deck, 9, Log::Skip).unwrap();
    for _ in 0..25 {
        let action = ai.choose(&mut game, Policy::Random).unwrap();
        game.act(action).unwrap();
    }
    a.ranks.update(&game);
    let mut changed_other = 0;
    for seat in 0..2 {
        for seed in 0..20 {
            let mut copy = game.clone();
            observe::redeal_unseen(&mut copy, seat, seed);
            assert_eq!(
                observe(&a, &copy, seat),
                observe(&a, &game, seat),
                "seat {seat}"
            );
            // The control: the other seat's hand was dealt anew, and it sees that.
            changed_other +=
                usize::from(observe(&a, &copy, 1 - seat) != observe(&a, &game, 1 - seat));
        }
    }
    assert!(changed_other > 30, "{changed_other}");
}

#[test]
fn an_invisible_status_is_seen_by_its_source_alone() {
    let (rules, deck) = load("tbwg");
    let a = agent(&rules, &deck);
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    let (pain, dio) = (EntityId::new(0), EntityId::new(1));
    let tensei = rules
        .statuses
        .iter()
        .position(|s| s == "chibaku-tensei")
        .unwrap();
    let gravity = rules
        .statuses
        .iter()
        .position(|s| s == "heavy-gravity")
        .unwrap();
    // Whoever's turn it is applies what a scenario gives.
    let source = game.ctx().current;
    let other = if source == pain { dio } else { pain };
    let status = |name: &str| {
        grimoire::check::ast::StatusId::new(rules.statuses.iter().position(|s| s == name).unwrap())
    };
    // Chibaku Tensei lasts while its source keeps its focus.
    game.give_status(source, status("chibaku-focus"), 1);
    game.give_status(other, status("chibaku-tensei"), 1);
    game.give_status(other, status("heavy-gravity"), 1);
    let statuses = a.layout.field("statuses").unwrap();
    let s = rules.statuses.len();
    // The holder's row, as each seat observes: the seats' rows are observer first.
    let held = |obs: &[i64], observer: EntityId, status: usize| {
        let row = if observer == other { 0 } else { 1 };
        obs[statuses.offset + (row * s + status) * 3]
    };
    let by_source = observe(&a, &game, source.index());
    let by_holder = observe(&a, &game, other.index());
    assert_eq!(held(&by_source, source, tensei), 1);
    assert_eq!(held(&by_holder, other, tensei), 0);
    assert_eq!(held(&by_source, source, gravity), 1);
    assert_eq!(held(&by_holder, other, gravity), 1);
}

#[test]
fn the_observers_seat_comes_first_among_the_seats() {
    let (rules, deck) = load("duel");
    let a = agent(&rules, &deck);
    let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    let offense = rules
        .attributes
        .iter()
        .position(|n| n == "offense")
        .unwrap();
    let width = rules.attributes.len() + rules.kinds.len() + 1;
    for seat in 0..2 {
        let obs = observe(&a, &game, seat);
        let rows = field(&a, &obs, "entities");
        // p1 has offense 4, p2 3 (rules/duel.edn's :setup).
        let mine = [4, 3][seat];
        assert_eq!(rows[offense], mine, "seat {seat}");
        assert_eq!(rows[width + offense], 7 - mine, "seat {seat}");
    }
    let mut out = vec![0; a.layout.len()];
    assert_eq!(
        a.layout.encode(&game, &a.ranks, 2, &mut out),
        Err(ObserveError::NoSuchSeat { seat: 2, seats: 2 })
    );
    assert_eq!(
        a.layout.encode(&game, &a.ranks, 0, &mut out[1..]),
        Err(ObserveError::WrongLength {
            got: a.layout.len() - 1,
            want: a.layout.len()
        })
    );
}

#[test]
fn an_action_space_past_the_limit_is_refused_with_its_size() {
    let cells: String = (0..70).map(|i| format!(":c{i} {{:kind :cell}} ")).collect();
    let rules = crate::common::rules(&format!(
        "{{:rules :big :roles {{:you \"you\" :other \"them\"}}
          :kinds {{:player \"a seat\" :cell \"a cell\"}}
          :attributes {{:x {{:default 0}}}}
          :seats [:p1 :p2]
          :setup {{{cells}}}
          :actions {{:link {{:doc \"join two cells\" :actor :cell :target :cell :effects []}}}}}}"
    ));
    match ActionSpace::new(&rules, &[]) {
        Err(SpaceError::TooLarge { size, detail, .. }) => {
            assert_eq!(size, 70 * 70);
            assert!(detail.contains("link 70 × 70 × 1"), "{detail}");
            assert!(size > MAX_ACTIONS);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_action_past_the_ranks_is_counted_not_masked() {
    let (rules, deck) = load("tactics");
    let mut a = agent(&rules, &deck);
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    let tile = rules.kind("tile").unwrap();
    let cap = a.space.rank_caps()[tile.index()];
    let mut last = None;
    for _ in 0..=cap {
        last = game.add_entity("tile");
    }
    a.ranks.update(&game);
    let last = last.unwrap();
    assert_eq!(a.ranks.rank(last), Some((tile, cap)));
    let action = Action {
        ability: Ability::Action(grimoire::check::rules::ActionId::new(
            rules
                .actions
                .iter()
                .position(|d| d.name == "no-tile")
                .unwrap(),
        )),
        actor: EntityId::new(0),
        target: Some(last),
        choice: None,
    };
    assert_eq!(a.space.index_of(&game, &a.ranks, action), None);
}

#[test]
fn the_seat_screen_is_what_play_human_shows_the_seat() {
    use grimoire::cli::{self, PlayArgs};
    let mut input: &[u8] = b"q\n";
    let mut output = Vec::new();
    let args = PlayArgs {
        encounter: None,
        players: None,
        rules: "arcomage".into(),
        cards: Vec::new(),
        seed: 3,
        ai: Vec::new(),
        human: true,
        record: None,
        view: None,
        color: false,
    };
    cli::play(&args, &mut input, &mut output);
    let shown = String::from_utf8(output).unwrap();
    let (rules, deck) = load("arcomage");
    let game = Game::new(&rules, &deck, 3, Log::Skip).unwrap();
    let mine = cli::seat_screen(&game, EntityId::new(0));
    assert!(shown.contains(&mine), "{shown}\n---\n{mine}");
    assert!(mine.contains("your hand:"), "{mine}");
    // The other seat's screen: its own hand, not p1's.
    let theirs = cli::seat_screen(&game, EntityId::new(1));
    for (i, card) in game.hand_of(EntityId::new(1)).iter().enumerate() {
        let name = &deck[card.index()].name;
        assert!(
            theirs.contains(&format!("  {}. {name} (", i + 1)),
            "{theirs}"
        );
    }
    assert_ne!(mine, theirs);
}

#[test]
fn a_hand_is_given_no_more_slots_than_its_pile_deals() {
    // Skills' hand holds 64, but each seat's pile deals its 21 cards.
    let (rules, deck) = load("skills");
    assert_eq!(rules.cards.as_ref().unwrap().hand_size, 64);
    let copies: usize = deck.iter().map(|c| usize::from(c.play.copies)).sum();
    let a = agent(&rules, &deck);
    assert_eq!(a.space.hand_slots(), copies);
    let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    assert_eq!(game.hand_of(EntityId::new(0)).len(), copies);
}

const SKIRMISH: &str = "tests/data/zones/rules/skirmish.edn";

/// The fixture of cards in zones (tests/data/zones), loaded as
/// `grimoire.env` loads a rule set given by its path: its deck is the
/// `cards/skirmish/` beside its `rules/`.
fn skirmish() -> (RuleSet, Vec<Card>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SKIRMISH);
    let library = files::Library::current();
    let mut opened = library.open(path.to_str().unwrap()).expect("rules");
    let deck = opened.deck(library, &[], &[]).expect("deck");
    (opened.rules, deck.cards)
}

/// The card called `name` in `deck`.
fn card_named(deck: &[Card], name: &str) -> grimoire::engine::CardId {
    grimoire::engine::CardId::new(deck.iter().position(|c| c.name == name).unwrap())
}

#[test]
fn a_hand_of_zones_has_a_slot_per_card_its_zone_holds_its_discards_and_the_end_of_a_turn() {
    let (rules, deck) = skirmish();
    let a = agent(&rules, &deck);
    // The hand zone holds 10 (`:capacity 10`): not the classic hand size.
    assert_eq!(a.space.hand_slots(), 10);
    // Insight makes its player discard, Toll the other: the discards have indices.
    assert_eq!(a.space.discard_slots(), 10);
    assert_eq!(a.space.end_turn_index(), Some(20));
    assert_eq!(a.space.len(), 21);
    let said = |i| a.space.describe(&rules, i);
    assert_eq!(said(9).as_deref(), Some("play hand slot 9"));
    assert_eq!(said(10).as_deref(), Some("discard hand slot 0"));
    assert_eq!(said(19).as_deref(), Some("discard hand slot 9"));
    assert_eq!(said(20).as_deref(), Some("end the turn"));
    assert_eq!(said(21), None);
    let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    assert_eq!(
        a.space.action_at(&game, &a.ranks, 20),
        Some(game.end_turn_action())
    );
    assert_eq!(
        a.space.action_at(&game, &a.ranks, 12),
        Some(game.discard(2))
    );
    let first = &deck[game.hand()[0].index()].name;
    assert_eq!(
        a.space.describe_in(&game, &a.ranks, 0),
        Some(format!("play {first} (slot 0)"))
    );
    assert_eq!(
        a.space.describe_in(&game, &a.ranks, 9).as_deref(),
        Some("play hand slot 9 (empty)")
    );
    // A deck whose cards never make anyone discard, in a hand that may not:
    // no discard indices, and the end of the turn right after the plays.
    let calm: Vec<Card> = deck
        .iter()
        .filter(|c| c.name != "Insight" && c.name != "Toll")
        .cloned()
        .collect();
    let space = ActionSpace::new(&rules, &calm).unwrap();
    assert_eq!(space.hand_slots(), 10);
    assert_eq!(space.discard_slots(), 0);
    assert_eq!(space.end_turn_index(), Some(10));
    assert_eq!(space.describe(&rules, 10).as_deref(), Some("end the turn"));
    // A hand that `:may-discard` has them whatever the cards.
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SKIRMISH))
            .unwrap()
            .replace(":plays true", ":plays true :may-discard true");
    let discarding = RuleSet::parse(&text).unwrap();
    let space = ActionSpace::new(&discarding, &calm).unwrap();
    assert_eq!(space.discard_slots(), 10);
    assert_eq!(space.end_turn_index(), Some(20));
}

#[test]
fn every_legal_skirmish_action_has_its_own_index_in_200_random_games() {
    let (rules, deck) = skirmish();
    let met = masks_match_the_legal_actions_in(&rules, &deck, 200, Policy::Random);
    // Plays, forced and chosen discards, and ends of turns were all met.
    let space = agent(&rules, &deck).space;
    let h = space.hand_slots();
    assert!(met.iter().any(|&i| i < h));
    assert!(met.iter().any(|&i| (h..2 * h).contains(&i)));
    assert!(met.contains(&(2 * h)));
}

#[test]
fn card_instances_take_no_rank_not_even_tokens_made_on_a_board() {
    let (rules, deck) = skirmish();
    let mut a = agent(&rules, &deck);
    let mut ai = Ai::new();
    let conjure = card_named(&deck, "Conjure");
    let mut tokens = 0;
    for seed in 0..40 {
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        a.ranks.reset();
        a.ranks.update(&game);
        while game.outcome().is_none() {
            // Conjure whenever it can be: its Wisps are made on the board, in play.
            let mut legal = Vec::new();
            game.legal(&mut legal);
            let conjured = legal.iter().copied().find(
                |x| matches!(x.ability, Ability::Card(i) if game.hand()[usize::from(i)] == conjure),
            );
            let Some(action) = conjured.or_else(|| ai.choose(&mut game, Policy::Random)) else {
                break;
            };
            game.act(action).unwrap();
            a.ranks.update(&game);
        }
        let t = game.state().cards.as_deref().unwrap();
        for e in t.instances() {
            assert_eq!(
                a.ranks.rank(e),
                None,
                "seed {seed}: {}",
                game.entity_name(e)
            );
            tokens += usize::from(game.entity_name(e).starts_with("Wisp"));
        }
        assert_eq!(a.ranks.rank(EntityId::new(1)).map(|r| r.1), Some(1));
    }
    assert!(tokens > 0, "no Wisp was made");
}

#[test]
fn each_pile_of_zones_is_observed_as_the_seat_sees_it() {
    let (rules, deck) = skirmish();
    let a = agent(&rules, &deck);
    let names: Vec<&str> = a.layout.fields().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "seat",
            "turn",
            "entities",
            "zone:deck",
            "zone:deck:known",
            "zone:hand:me",
            "zone:hand:other",
            "zone:hand:other:known",
            "zone:discard",
            "zone:board:me",
            "zone:board:other",
            "zone:aside",
            "zone:aside:known",
            "zone:playing",
            "zone:removed",
        ]
    );
    let d = deck.len();
    // A row: the card one-hot, its health and attack (the attributes cards'
    // `:values` set, in declaration order); a hand's adds cost and affordable.
    let (hand_w, board_w) = (d + 4, d + 2);
    assert_eq!(a.layout.field("zone:hand:me").unwrap().shape, [10, hand_w]);
    assert_eq!(
        a.layout.field("zone:board:other").unwrap().shape,
        [7, board_w]
    );
    // Cards in hidden piles take no row of `entities`: only the two heroes.
    assert_eq!(a.layout.field("entities").unwrap().shape[0], 2);
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).unwrap();
    let mut ai = Ai::new();
    // On until both boards hold minions and the discards hold cards.
    let t = |g: &Game<'_>| g.state().cards.as_deref().unwrap().clone();
    let set = rules.zones.as_ref().unwrap();
    let zone = |n: &str| set.zone(n).unwrap();
    let held =
        |g: &Game<'_>, n: &str, seat: usize| g.zone_cards(zone(n), EntityId::new(seat)).unwrap();
    while game.outcome().is_none()
        && (held(&game, "board", 0).is_empty()
            || held(&game, "board", 1).is_empty()
            || held(&game, "discard", 0).len() < 3)
    {
        let action = ai.choose(&mut game, Policy::Greedy).unwrap();
        game.act(action).unwrap();
    }
    assert!(game.outcome().is_none());
    let (health, attack, mana) = (
        rules.attribute("health").unwrap(),
        rules.attribute("attack").unwrap(),
        rules.attribute("mana").unwrap(),
    );
    for seat in 0..2 {
        let me = EntityId::new(seat);
        let other = EntityId::new(1 - seat);
        let obs = observe(&a, &game, seat);
        let table = t(&game);
        let hand = field(&a, &obs, "zone:hand:me");
        let mine = table
            .contents(table.pile(set, zone("hand"), me).unwrap())
            .to_vec();
        assert!(!mine.is_empty());
        for (slot, &e) in mine.iter().enumerate() {
            let row = &hand[slot * hand_w..(slot + 1) * hand_w];
            let card = table.card(e).unwrap();
            assert_eq!(row[..d].iter().sum::<i64>(), 1);
            assert_eq!(row[card.index()], 1, "seat {seat} slot {slot}");
            assert_eq!(row[d], game.state().get(e, health));
            assert_eq!(row[d + 1], game.state().get(e, attack));
            let cost = deck[card.index()].play.cost;
            assert_eq!(row[d + 2], cost);
            assert_eq!(row[d + 3], i64::from(game.state().get(me, mana) >= cost));
        }
        assert!(hand[mine.len() * hand_w..].iter().all(|&v| v == 0));
        for (whose, owner) in [("me", me), ("other", other)] {
            let board = field(&a, &obs, &format!("zone:board:{whose}"));
            let on = table.contents(table.pile(set, zone("board"), owner).unwrap());
            for (slot, &e) in on.iter().enumerate() {
                let row = &board[slot * board_w..(slot + 1) * board_w];
                assert_eq!(row[table.card(e).unwrap().index()], 1);
                assert_eq!(row[d], game.state().get(e, health));
                assert_eq!(row[d + 1], game.state().get(e, attack));
            }
            assert!(board[on.len() * board_w..].iter().all(|&v| v == 0));
        }
        let theirs = table.count(table.pile(set, zone("hand"), other).unwrap());
        assert_eq!(field(&a, &obs, "zone:hand:other"), [theirs as i64]);
        let deck_pile = table.pile(set, zone("deck"), me).unwrap();
        assert_eq!(
            field(&a, &obs, "zone:deck"),
            [table.count(deck_pile) as i64]
        );
        let mut bag = vec![0; d];
        for c in held(&game, "discard", 0).into_iter().flatten() {
            bag[c.index()] += 1;
        }
        assert_eq!(field(&a, &obs, "zone:discard"), bag);
        // Nothing of the hidden piles is known yet but what was looked at.
        let known = |obs: &[i64], n: &str| field(&a, obs, n).iter().sum::<i64>();
        let knows = |pile: usize| {
            table
                .contents(pile)
                .iter()
                .filter(|&&e| table.known(e) & (1 << seat) != 0)
                .count()
        };
        let theirs_pile = table.pile(set, zone("hand"), other).unwrap();
        assert_eq!(
            known(&obs, "zone:hand:other:known"),
            knows(theirs_pile) as i64
        );
        assert_eq!(known(&obs, "zone:deck:known"), knows(deck_pile) as i64);
    }
    // A card of p2's hand p1 comes to know shows in p1's known bag, and
    // nowhere in p2's observation but its own hand, which it always saw.
    let table = t(&game);
    let theirs = table.contents(table.pile(set, zone("hand"), EntityId::new(1)).unwrap())[0];
    let card = table.card(theirs).unwrap();
    let before = observe(&a, &game, 0);
    let p2 = observe(&a, &game, 1);
    game.cards_mut_unchecked()
        .unwrap()
        .set_known_unchecked(theirs, 0b11);
    let after = observe(&a, &game, 0);
    let bag = |obs: &[i64]| field(&a, obs, "zone:hand:other:known")[card.index()];
    assert_eq!(bag(&after), bag(&before) + 1);
    assert_eq!(observe(&a, &game, 1), p2);
}

/// The test's own generator (xorshift64*), so the permutations it makes owe
/// nothing to the engine's.
struct Stir(u64);

impl Stir {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// `game` with the cards of the instances `seat` cannot tell (as
/// `CardTable::sees` says) permuted among them by `stir`; whether any
/// instance changed card.
fn permuted<'r>(game: &Game<'r>, seat: EntityId, stir: &mut Stir) -> (Game<'r>, bool) {
    let set = game.rules().zones.as_ref().unwrap();
    let t = game.state().cards.as_deref().unwrap();
    let hidden: Vec<EntityId> = (0..t.piles())
        .flat_map(|p| t.contents(p).iter().copied())
        .filter(|&e| t.card(e).is_some() && !t.sees(set, seat, e))
        .collect();
    let mut copy = game.clone();
    for i in (1..hidden.len()).rev() {
        let j = stir.below(i + 1);
        assert!(copy.swap_cards_unchecked(hidden[i], hidden[j]));
    }
    let after = copy.state().cards.as_deref().unwrap();
    let changed = hidden.iter().any(|&e| after.card(e) != t.card(e));
    (copy, changed)
}

#[test]
fn what_a_seat_cannot_tell_in_zones_never_changes_its_observation() {
    let (rules, deck) = skirmish();
    let mut a = agent(&rules, &deck);
    let mut ai = Ai::new();
    let mut stir = Stir(0x9E37_79B9_7F4A_7C15);
    let (mut positions, mut others_changed) = (0, 0);
    'games: for seed in 1..200 {
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        a.ranks.reset();
        a.ranks.update(&game);
        let policies = [Policy::Random, Policy::Greedy];
        let mut decision = 0;
        while game.outcome().is_none() {
            let seat = game.ctx().current;
            if decision % 3 == seed % 3 {
                let (copy, changed) = permuted(&game, seat, &mut stir);
                if changed {
                    assert_eq!(
                        observe(&a, &copy, seat.index()),
                        observe(&a, &game, seat.index()),
                        "seed {seed}, decision {decision}: seat {seat} observed what it cannot tell"
                    );
                    let other = 1 - seat.index();
                    others_changed +=
                        usize::from(observe(&a, &copy, other) != observe(&a, &game, other));
                    positions += 1;
                    if positions == 200 {
                        break 'games;
                    }
                }
            }
            decision += 1;
            let policy = Policy::for_seat(&policies, (seed as usize + seat.index()) % 2);
            let Some(action) = ai.choose(&mut game, policy) else {
                break;
            };
            game.act(action).unwrap();
            a.ranks.update(&game);
        }
    }
    assert_eq!(positions, 200);
    // The control: the other seat, whose own hand is among the cards
    // permuted (when the permutation moved one of its cards), sees the
    // difference at most positions.
    assert!(others_changed > 100, "{others_changed}");
}

/// A card on a board shows the statuses it holds in its row, after its
/// one-hot and values, three numbers a status as in `statuses`: a minion's
/// Divine Shield is seen while it is up and gone once a blow takes it.
#[test]
fn a_board_cards_row_shows_the_statuses_it_holds() {
    let (rules, deck) = load("minions");
    let a = agent(&rules, &deck);
    let set = rules.zones.as_ref().unwrap();
    let board = set.zone("board").unwrap();
    let (d, s) = (deck.len(), rules.statuses.len());
    let values = a.layout.field("zone:board:me").unwrap().shape[1] - d - 3 * s;
    let shield = rules.status("divine-shield").unwrap();
    let novice = card_named(&deck, "Silver Novice");
    let (mut shields, mut lost) = (0, 0);
    for seed in 0..20 {
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        let mut ai = Ai::new();
        while game.outcome().is_none() {
            for seat in 0..2 {
                let obs = observe(&a, &game, seat);
                let table = game.state().cards.as_deref().unwrap().clone();
                for (whose, owner) in [("me", seat), ("other", 1 - seat)] {
                    let rows = field(&a, &obs, &format!("zone:board:{whose}"));
                    let width = rows.len() / 7;
                    let pile = table.pile(set, board, EntityId::new(owner)).unwrap();
                    for (slot, &e) in table.contents(pile).iter().enumerate() {
                        let row = &rows[slot * width..(slot + 1) * width];
                        for status in 0..s {
                            let held: i64 = game
                                .state()
                                .statuses()
                                .iter()
                                .filter(|i| i.holder == e && i.status.index() == status)
                                .map(|i| i64::from(i.stacks))
                                .sum();
                            assert_eq!(row[d + values + 3 * status], held, "seed {seed}");
                        }
                        let up = row[d + values + 3 * shield.index()];
                        if seat == 0 && table.card(e) == Some(novice) {
                            if up > 0 { shields += 1 } else { lost += 1 }
                        }
                    }
                }
            }
            let action = ai.choose(&mut game, Policy::Random).unwrap();
            game.act(action).unwrap();
        }
    }
    assert!(shields > 0 && lost > 0, "shields {shields}, lost {lost}");
}
