-- The duel of rules/duel.edn (seed 003's d20 combat) in Lua 5.4, both
-- combatants choosing uniformly among their legal actions (the attack types
-- they can pay for; then, defending, a defence or a dodge).
--
-- Dice: Lua's own math.random (xoshiro256**, in C), seeded per game with
-- math.randomseed. The fighters' mastery levels, the hits to win and the turn
-- limit come from the host, read from the rule set.

local random, max = math.random, math.max

-- :lookups :modifier — mastery level 1..7 → 0..6.
local function modifier(level) return level - 1 end

-- :formulas :stamina of :lookups :index (the index is the level): 10 × index².
local function stamina_for(level) return 10 * level * level end

-- :lookups :damage — the roll difference → stamina lost.
local function damage(diff)
    if diff >= 10 then return 10 elseif diff >= 4 then return 5 elseif diff >= 1 then return 3 end
    return 0
end

-- :lookups :attack-bonus and :attack-cost — 1 quick, 2 focused, 3 powerful.
local attack_bonus = {0, 2, 4}
local attack_cost = {2, 4, 6}

-- :formulas :roll — 1d20 + modifier; advantage keeps the higher of two.
local function roll(favoured, mod)
    local r = random(20)
    if favoured then
        local again = random(20)
        if again > r then r = again end
    end
    return r + mod
end

-- :formulas :dc — stability DC against the other's offense.
local function dc(offense, defense) return 10 - (modifier(offense) - modifier(defense)) end

-- :formulas :dodge-cost — a dodge is free one speed level above the attacker.
local function dodge_cost(defender_speed, attacker_speed)
    if defender_speed >= attacker_speed + 1 then return 0 end
    return 1
end

local function combatant(levels)
    return {
        offense = levels[1], defense = levels[2], speed = levels[3], endurance = levels[4],
        stamina = 0, max_stamina = 0, roll_bonus = 0, exhausted = false,
        initiative = 0, tiebreak = 0, edge = 0, hits = 0, recovering = false, down = false,
    }
end

-- Stamina never goes below 0.
local function lose(c, amount) c.stamina = max(0, c.stamina - amount) end

-- Exhausted (−2 to attack and defense rolls) at or below 25 % of the maximum, once.
local function tire(c)
    if not c.exhausted and 4 * c.stamina <= c.max_stamina then
        c.exhausted = true
        c.roll_bonus = c.roll_bonus - 2
    end
end

-- 8. At 0 stamina: 1d20 + endurance modifier against the DC; pass: lose the
-- next action; fail: collapse.
local function steady(c, against)
    if c.stamina == 0 then
        if random(20) + modifier(c.endurance) >= against then c.recovering = true else c.down = true end
    end
end

-- One game from `seed`: result, turns. Result 1 or 2 for the winning seat, 3
-- for both winning at once (a tie), 0 for the turn limit.
local function play(seed, p1, p2, hits_to_win, limit)
    math.randomseed(seed)
    local p = {combatant(p1), combatant(p2)}
    -- 1. The game's start, each timing for both seats in seat order: stamina,
    -- initiative, then a tiebreak roll for each when initiative and speed tie.
    for _, c in ipairs(p) do
        c.max_stamina = stamina_for(c.endurance)
        c.stamina = c.max_stamina
    end
    for _, c in ipairs(p) do c.initiative = random(20) end
    for i = 1, 2 do
        local c, o = p[i], p[3 - i]
        if c.initiative == o.initiative and c.speed == o.speed then c.tiebreak = random(20) end
    end
    -- Highest initiative, then speed, then tiebreak first; a full tie keeps seat order.
    local a, b = p[1], p[2]
    local second_first = b.initiative > a.initiative or (b.initiative == a.initiative and
        (b.speed > a.speed or (b.speed == a.speed and b.tiebreak > a.tiebreak)))
    local order = second_first and {b, a} or {a, b}

    -- Every turn counts toward the limit: a combatant's own turns, which
    -- alternate, and the defend turn each attack gives the defender.
    local turn, own = 1, 1
    while true do
        local you = order[(own - 1) % 2 + 1]
        local other = you == a and b or a
        own = own + 1
        if you.recovering then
            -- :recover is the only action after a passed stability roll.
            you.recovering = false
        else
            -- 2. Quick always; focused and powerful only with the stamina they
            -- cost, which is paid as the attack is declared.
            local stamina = you.stamina
            local kind = random(stamina >= 6 and 3 or stamina >= 4 and 2 or 1)
            lose(you, attack_cost[kind])

            -- 3–4. The attack roll, with advantage from a mastery gap of 2 or a carried edge.
            local attack = roll(you.edge == 1 or you.offense - other.defense >= 2,
                                modifier(you.offense) + attack_bonus[kind] + you.roll_bonus)
            you.edge = 0
            if turn >= limit then return 0, turn end
            turn = turn + 1

            -- The defender's turn: defend (cost 1) or dodge, chosen uniformly.
            local cost = random(2) == 1 and 1 or dodge_cost(other.speed, you.speed)
            lose(other, cost)
            -- At its end, the defense roll and the exchange.
            local defense = roll(other.defense - you.offense >= 2,
                                 modifier(other.defense) + other.roll_bonus)
            -- 5. A hit takes stamina by the difference.
            local diff = attack - defense
            if diff > 0 then
                lose(other, damage(diff))
                you.hits = you.hits + 1
            end
            -- 6. Exhaustion, the costs paid.
            tire(you)
            tire(other)
            -- 7. A difference of 10 or more: advantage on the higher roller's next attack.
            if diff >= 10 then you.edge = 1 end
            if -diff >= 10 then other.edge = 1 end
            -- 8. Stability at 0 stamina: the defender, then the attacker.
            steady(other, dc(you.offense, other.defense))
            steady(you, dc(other.offense, you.defense))

            -- Victory: the other collapsed, or the hits to win.
            local first_wins = b.down or (hits_to_win > 0 and a.hits >= hits_to_win)
            local second_wins = a.down or (hits_to_win > 0 and b.hits >= hits_to_win)
            if first_wins and second_wins then return 3, turn end
            if first_wins then return 1, turn end
            if second_wins then return 2, turn end
        end
        if turn >= limit then return 0, turn end
        turn = turn + 1
    end
end

-- `n` games from seeds `first`, `first` + 1, …: draws, seat 1 wins, seat 2
-- wins, ties, sum of turns, sum of squared turns.
function run(first, n, p1, p2, hits_to_win, limit)
    local tally = {[0] = 0, 0, 0, 0}
    local turns, squares = 0, 0
    for i = 0, n - 1 do
        local result, t = play(first + i, p1, p2, hits_to_win, limit)
        tally[result] = tally[result] + 1
        turns = turns + t
        squares = squares + t * t
    end
    return tally[0], tally[1], tally[2], tally[3], turns, squares
end
