-- The first fight of rules/deckbuilder.edn (encounter `gnasher`) in Lua 5.4:
-- the starter deck (5 Slash, 4 Guard, 1 Sunder) against the Gnasher, the
-- player choosing as grimoire's random policy does: while a card in hand can
-- be paid for, one of those cards (uniformly, by hand place); then the turn
-- ends.
--
-- Dice: Lua's own math.random (xoshiro256**, in C), seeded per game with
-- math.randomseed. The player's health, the Gnasher's health range and the
-- turn limit come from the host, read from the rule set; the rules themselves
-- are written out here.

local random, floor = math.random, math.floor

local SLASH, GUARD, SUNDER = 1, 2, 3
local COST = {1, 1, 2}
local STARTER = {SLASH, SLASH, SLASH, SLASH, SLASH, GUARD, GUARD, GUARD, GUARD, SUNDER}
local GNASH, FLAIL, ROAR = 1, 2, 3

-- :formulas :damage — (base) × 1.5 on a vulnerable target, rounded down once
-- (no weak or strength on the player's side in this fight).
local function damage(base, vulnerable)
    if vulnerable > 0 then return floor(base * 1.5) end
    return base
end

-- Fisher-Yates, in place.
local function shuffle(t, n)
    for i = n, 2, -1 do
        local j = random(i)
        t[i], t[j] = t[j], t[i]
    end
end

-- The Gnasher's next move after `last` (and `before` it), as the model
-- draws it: Roar 45, Flail 30, Gnash 25; a move that may not come again is
-- drawn anew among fixed alternatives with their own odds.
local function next_move(last, before)
    local num = random(0, 99)
    if num < 25 then
        if last == GNASH then
            if random() < 0.5625 then return ROAR end
            return FLAIL
        end
        return GNASH
    elseif num < 55 then
        if last == FLAIL and before == FLAIL then
            if random() < 0.357 then return GNASH end
            return ROAR
        end
        return FLAIL
    end
    if last == ROAR then
        if random() < 0.416 then return GNASH end
        return FLAIL
    end
    return ROAR
end

-- One fight: returns lost (0 or 1), the rounds played, the player's health left.
local function fight(start_health, lo, hi, limit, draw, discard, hand)
    local health, block, energy = start_health, 0, 0
    local g_health = random(lo, hi)
    local g_block, g_strength, g_vulnerable = 0, 0, 0
    local nd, nx, nh = 10, 0, 0
    for i = 1, 10 do draw[i] = STARTER[i] end
    shuffle(draw, nd)
    local move, last, before = GNASH, 0, 0
    for round = 1, limit do
        -- The player's turn: draw 5 (the discards reshuffled when the draw
        -- pile runs out), 3 energy, the block gone.
        for _ = 1, 5 do
            if nd == 0 then
                for i = 1, nx do draw[i] = discard[i] end
                nd, nx = nx, 0
                shuffle(draw, nd)
            end
            if nd == 0 then break end
            nh = nh + 1
            hand[nh] = draw[nd]
            nd = nd - 1
        end
        energy, block = 3, 0
        while true do
            local payable = 0
            for i = 1, nh do
                if COST[hand[i]] <= energy then payable = payable + 1 end
            end
            if payable == 0 then break end
            local k = random(payable)
            local at = 0
            for i = 1, nh do
                if COST[hand[i]] <= energy then
                    k = k - 1
                    if k == 0 then at = i break end
                end
            end
            local card = hand[at]
            table.remove(hand, at)
            nh = nh - 1
            energy = energy - COST[card]
            if card == GUARD then
                block = block + 5
            else
                local dmg = damage(card == SLASH and 6 or 8, g_vulnerable)
                local through = dmg - g_block
                if through < 0 then through = 0 end
                g_block = g_block - (dmg < g_block and dmg or g_block)
                g_health = g_health - through
                if card == SUNDER then g_vulnerable = g_vulnerable + 2 end
            end
            nx = nx + 1
            discard[nx] = card
            if g_health <= 0 then return 0, round, health end
        end
        -- The turn ends: the hand discarded.
        for i = 1, nh do
            nx = nx + 1
            discard[nx] = hand[i]
            hand[i] = nil
        end
        nh = 0
        -- The Gnasher's turn: its block gone, then the move it showed.
        g_block = 0
        if move == ROAR then
            g_strength = g_strength + 3
            g_block = g_block + 6
        else
            local dmg = (move == GNASH and 11 or 7) + g_strength
            local through = dmg - block
            if through < 0 then through = 0 end
            block = block - (dmg < block and dmg or block)
            health = health - through
            if move == FLAIL then g_block = g_block + 5 end
            if health <= 0 then return 1, round, 0 end
        end
        before, last = last, move
        move = next_move(last, before)
        -- The round ends: vulnerable counts down.
        if g_vulnerable > 0 then g_vulnerable = g_vulnerable - 1 end
    end
    return 0, limit, health
end

-- `n` fights seeded first, first + 1, …: the fights, the losses, the sums
-- (and sums of squares) of the rounds and of the health left.
function run(first, n, start_health, lo, hi, limit)
    local draw, discard, hand = {}, {}, {}
    local losses, rounds, rounds2, left, left2 = 0, 0, 0, 0, 0
    for g = 0, n - 1 do
        math.randomseed(first + g)
        for i = #hand, 1, -1 do hand[i] = nil end
        local lost, r, h = fight(start_health, lo, hi, limit, draw, discard, hand)
        losses = losses + lost
        rounds, rounds2 = rounds + r, rounds2 + r * r
        left, left2 = left + h, left2 + h * h
    end
    return n, losses, rounds, rounds2, left, left2
end
