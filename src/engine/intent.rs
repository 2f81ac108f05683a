//! Scripted enemies (a kind's `:moves` and `:script`): each entity's next
//! move chosen at its script's moment and kept as its intent, shown to every
//! seat (the view, the log) before the seats act, and done on its turn.
//!
//! The intent is engine state beside the statuses: per entity, the move
//! intended, the last move done and how many times running, and how many
//! moves were chosen (for the opening and the sequence). A draw among a
//! script's `:pick` entries comes from the game's generator, so a fight is
//! the same for the same seed.

use super::{By, Game, GameEvent};
use crate::check::rules::moves::{DecideAt, Script};
use crate::eval::apply;
use crate::ids::EntityId;
use rand::RngExt;

/// One scripted entity's intent and the history its script reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// The move it will do on its next turn, once chosen.
    next: Option<u8>,
    /// The amount shown with it, as last read.
    amount: Option<i64>,
    /// The last move it did.
    last: Option<u8>,
    /// How many times running it did `last`.
    run: u32,
    /// How many moves were chosen for it so far.
    chosen: u32,
}

/// Every scripted entity's intent, by entity number.
#[derive(Debug, Default)]
pub(super) struct Intents {
    slots: Vec<Slot>,
    /// A buffer for [`Game::draw_pick`]'s alternatives, not state: a copy
    /// starts with it empty.
    alternatives: Vec<u32>,
}

impl Clone for Intents {
    fn clone(&self) -> Intents {
        Intents {
            slots: self.slots.clone(),
            alternatives: Vec::new(),
        }
    }

    /// Into the buffer already held: a search copies the intents into a
    /// world of its once an iteration.
    fn clone_from(&mut self, source: &Intents) {
        self.slots.clone_from(&source.slots);
    }
}

impl Intents {
    /// A tracker for a rule set where some kind has moves.
    pub(super) fn new(rules: &crate::check::rules::RuleSet) -> Option<Box<Intents>> {
        rules
            .scripts
            .iter()
            .any(Option::is_some)
            .then(|| Box::new(Intents::default()))
    }

    fn slot(&mut self, entity: EntityId) -> &mut Slot {
        if self.slots.len() <= entity.index() {
            self.slots.resize(entity.index() + 1, Slot::default());
        }
        &mut self.slots[entity.index()]
    }

    /// Forgets every intent: a new game.
    pub(super) fn clear(&mut self) {
        self.slots.clear();
    }
}

/// An entity's intent as every seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intent {
    /// The entity.
    pub entity: EntityId,
    /// The move it will do, by its index in its kind's `:moves`.
    pub chosen: u8,
    /// The amount shown with it (`:amount`), as it reads now.
    pub amount: Option<i64>,
}

impl Intent {
    /// The intent in words, as the log and screens say it: `Chomp: 11 damage`.
    pub fn words(&self, script: &Script) -> String {
        let Some(m) = script.moves.get(usize::from(self.chosen)) else {
            return String::new();
        };
        let shown = match self.amount {
            Some(n) if m.intent.contains("{amount}") => {
                m.intent.replace("{amount}", &n.to_string())
            }
            Some(n) if m.intent.is_empty() => n.to_string(),
            Some(n) => format!("{n} {}", m.intent),
            None => m.intent.clone(),
        };
        match shown.is_empty() {
            true => m.name.clone(),
            false => format!("{}: {shown}", m.name),
        }
    }
}

impl<'r> Game<'r> {
    /// The script of `entity`'s kind, if it has one.
    fn script_of(&self, entity: EntityId) -> Option<&'r Script> {
        let rules: &'r crate::check::rules::RuleSet = self.rules;
        let kind = self.state.kind(entity)?;
        rules.scripts.get(kind)?.as_deref()
    }

    /// Every live scripted entity's intent, in entity order: what every seat sees.
    pub fn intents(&self) -> Vec<Intent> {
        let Some(intents) = self.intents.as_deref() else {
            return Vec::new();
        };
        intents
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let entity = EntityId::new(i);
                let chosen = s.next?;
                self.state.is_live(entity).then_some(Intent {
                    entity,
                    chosen,
                    amount: s.amount,
                })
            })
            .collect()
    }

    /// The intent of `entity` in words (`Chomp: 11 damage`), if it has one.
    pub fn intent_words(&self, entity: EntityId) -> Option<String> {
        let script = self.script_of(entity)?;
        self.intents()
            .into_iter()
            .find(|i| i.entity == entity)
            .map(|i| i.words(script))
    }

    /// Chooses the next move of every live scripted entity that has none,
    /// and, at a round's start, of those that choose then.
    #[cold]
    pub(super) fn decide_intents(&mut self, round_start: bool) {
        // A game over chooses nothing more (nor draws from the generator).
        if self.intents.is_none() || matches!(self.phase, super::Phase::Over(_)) {
            return;
        }
        for i in 0..self.state.len() {
            let entity = EntityId::new(i);
            let Some(script) = self.script_of(entity) else {
                continue;
            };
            let again = round_start && script.decide_at == DecideAt::RoundStart;
            let undecided = self
                .intents
                .as_deref_mut()
                .is_some_and(|t| t.slot(entity).next.is_none());
            if self.state.is_live(entity) && (again || undecided) {
                self.decide(entity);
            }
        }
    }

    /// Chooses `entity`'s next move by its script, and says so in the log.
    fn decide(&mut self, entity: EntityId) {
        let Some(script) = self.script_of(entity) else {
            return;
        };
        let Some(slot) = self.intents.as_deref_mut().map(|t| *t.slot(entity)) else {
            return;
        };
        let n = slot.chosen as usize;
        let chosen = if let Some(&m) = script.first.get(n) {
            m
        } else if !script.sequence.is_empty() {
            script.sequence[(n - script.first.len()) % script.sequence.len()]
        } else if !script.pick.is_empty() {
            self.draw_pick(script, entity, slot)
        } else {
            // No script beyond the opening: the moves in the order written.
            ((n - script.first.len()) % script.moves.len()) as u8
        };
        let amount = self.intent_amount(script, entity, chosen);
        if let Some(t) = self.intents.as_deref_mut() {
            let s = t.slot(entity);
            s.next = Some(chosen);
            s.amount = amount;
            s.chosen += 1;
        }
        let kind = self.state.kind(entity).unwrap_or_default();
        self.record(GameEvent::Intends {
            entity,
            kind,
            chosen,
            amount,
        });
    }

    /// A weighted draw among the entries the script allows now, where an
    /// entry not allowed whose `:instead` allows some move stays in, and
    /// when drawn draws again among those (the model's re-roll with its own
    /// odds); the last move again when nothing is allowed.
    fn draw_pick(&mut self, script: &Script, entity: EntityId, slot: Slot) -> u8 {
        let mut roles = std::mem::take(&mut self.each_roles);
        roles.clear();
        roles.extend_from_slice(self.seat_roles(0));
        roles.push(entity);
        let mut weights = [0u32; 256];
        // Each entry with an `:instead` that stays in: where its allowed
        // alternatives' weights start in `alternatives` (`u32::MAX`: none).
        let mut alternatives_at = [u32::MAX; 256];
        let mut alternatives = self
            .intents
            .as_deref_mut()
            .map(|t| std::mem::take(&mut t.alternatives))
            .unwrap_or_default();
        alternatives.clear();
        let mut total = 0u64;
        for (k, p) in script.pick.iter().enumerate().take(weights.len()) {
            let mut w = allowed_weight(p, slot, &mut self.state, &roles);
            if w == 0 && !p.instead.is_empty() {
                let start = alternatives.len();
                for q in &p.instead {
                    alternatives.push(allowed_weight(q, slot, &mut self.state, &roles));
                }
                if alternatives[start..].iter().any(|&a| a > 0) {
                    w = p.weight;
                    alternatives_at[k] = start as u32;
                } else {
                    alternatives.truncate(start);
                }
            }
            weights[k] = w;
            total += u64::from(w);
        }
        self.state.forget_rolls();
        self.each_roles = roles;
        let chosen = if total == 0 {
            slot.last.or(slot.next).unwrap_or(0)
        } else {
            let drawn = weighted(&mut self.state.rng, &weights, total);
            let entry = &script.pick[drawn];
            match alternatives_at[drawn] {
                u32::MAX => entry.chosen,
                start => {
                    let weights = &alternatives[start as usize..][..entry.instead.len()];
                    let total = weights.iter().map(|&a| u64::from(a)).sum();
                    let again = weighted(&mut self.state.rng, weights, total);
                    entry.instead[again].chosen
                }
            }
        };
        if let Some(t) = self.intents.as_deref_mut() {
            t.alternatives = alternatives;
        }
        chosen
    }

    /// The amount shown with move `chosen` of `entity`, read without
    /// touching the game (its generator is put back).
    fn intent_amount(&mut self, script: &Script, entity: EntityId, chosen: u8) -> Option<i64> {
        let amount = script.moves.get(usize::from(chosen))?.amount.as_ref()?;
        let mut roles = std::mem::take(&mut self.each_roles);
        roles.clear();
        roles.extend_from_slice(self.seat_roles(0));
        roles.push(entity);
        // Read aside: on a budget of its own, the generator put back, so
        // showing an intent never changes or aborts the game.
        let n = self.state.aside(|state| {
            let rng = state.rng.clone();
            let n = crate::eval::value(amount, state, &roles);
            state.rng = rng;
            n
        });
        self.each_roles = roles;
        Some(n)
    }

    /// Reads every intent's amount again after a change (a strength gained,
    /// a weakness applied), so what the seats see is what it will do.
    #[cold]
    pub(super) fn refresh_intents(&mut self) {
        let slots = self.intents.as_deref().map_or(0, |t| t.slots.len());
        for i in 0..slots {
            let entity = EntityId::new(i);
            let Some(chosen) = self.intents.as_deref().and_then(|t| t.slots[i].next) else {
                continue;
            };
            let Some(script) = self.script_of(entity) else {
                continue;
            };
            if script
                .moves
                .get(usize::from(chosen))
                .is_none_or(|m| m.amount.is_none())
            {
                continue;
            }
            let amount = self.intent_amount(script, entity, chosen);
            let Some(t) = self.intents.as_deref_mut() else {
                continue;
            };
            let slot = t.slot(entity);
            if slot.amount != amount {
                slot.amount = amount;
                // What the seats see changed: the log says so.
                let kind = self.state.kind(entity).unwrap_or_default();
                self.record(GameEvent::IntentChanged {
                    entity,
                    kind,
                    chosen,
                    amount,
                });
            }
        }
    }

    /// A scripted entity's turn: its kind's `:on-turn`, then the move it
    /// intended, then (by its script) its next move chosen.
    #[cold]
    pub(super) fn scripted_turn(&mut self, entity: EntityId) {
        let rules = self.rules;
        let Some(script) = self.script_of(entity) else {
            return;
        };
        let intended = self
            .intents
            .as_deref_mut()
            .and_then(|t| t.slot(entity).next);
        let chosen = match intended {
            Some(m) => m,
            None => {
                self.decide(entity);
                let next = self
                    .intents
                    .as_deref_mut()
                    .and_then(|t| t.slot(entity).next);
                next.unwrap_or(0)
            }
        };
        let kind = self.state.kind(entity).unwrap_or_default();
        self.record(GameEvent::MoveDone {
            entity,
            kind,
            chosen,
        });
        if let Some(t) = self.intents.as_deref_mut() {
            let s = t.slot(entity);
            s.run = if s.last == Some(chosen) { s.run + 1 } else { 1 };
            s.last = Some(chosen);
            s.next = None;
            s.amount = None;
        }
        if let Some(m) = script.moves.get(usize::from(chosen)) {
            let mut roles = std::mem::take(&mut self.each_roles);
            roles.clear();
            roles.extend_from_slice(self.seat_roles(0));
            roles.push(entity);
            apply(rules, &m.effects, &mut self.state, &roles, &mut self.events);
            self.state.claim(crate::eval::Owner::Rules);
            self.each_roles = roles;
            self.flush_events(|cause| By::EntityTurn(entity, cause));
            self.check_victory();
        }
        if script.decide_at == DecideAt::AfterTurn
            && self.state.is_live(entity)
            && !matches!(self.phase, super::Phase::Over(_))
        {
            self.decide(entity);
        }
    }
}

/// `p`'s weight if the script allows it now (`:when` holds and it was not
/// the last `:max-in-a-row` moves), else 0.
fn allowed_weight(
    p: &crate::check::rules::moves::Pick,
    slot: Slot,
    state: &mut crate::eval::State,
    roles: &[EntityId],
) -> u32 {
    let too_often = p
        .max_in_a_row
        .is_some_and(|max| slot.last == Some(p.chosen) && slot.run >= max);
    let holds = p
        .when
        .as_ref()
        .is_none_or(|c| crate::eval::holds(c, state, roles));
    match !too_often && holds {
        true => p.weight,
        false => 0,
    }
}

/// The index of an entry drawn by weight (`total` their sum, above 0).
fn weighted(rng: &mut crate::eval::Rng, weights: &[u32], total: u64) -> usize {
    let mut at = rng.random_range(0..total);
    for (k, &w) in weights.iter().enumerate() {
        let w = u64::from(w);
        if at < w {
            return k;
        }
        at -= w;
    }
    0
}
