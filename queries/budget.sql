-- budget: what each probe spent, against the bounds its registration sets.
--
-- Every spawn counts against the budget, pilots and void ones included: the money was spent. A
-- spawn whose envelope gives no total_cost_usd cost an unknown amount, not nothing: with one, the
-- budget is within its bound only if it is known to be (NULL: cannot be checked). A spawn with no
-- envelope counts $0 when nothing shows it ran (it exited non-zero, made no tool call and left no
-- transcript: the CLI exited before a session); one that exited 0, made a call or has a transcript
-- spent an unknown amount too. A spawn whose transcript's priced responses cost more than its
-- total_cost_usd by more than 1% (spawns_over_envelope.sql) spent at least what they cost: it counts so.
--
-- reads:   source_files, spawns, tool_uses, transcript_sessions, transcript_messages, budgets
-- params:  none
-- returns: one row per probe
--   probe          VARCHAR
--   spent_usd      DOUBLE   the sum of the envelopes' total_cost_usd, to the micro-dollar (a spawn of
--                           spawns_over_envelope at its transcript's cost)
--   spawns         BIGINT   results.jsonl rows
--   unpriced       BIGINT   spawns that ran and whose envelope gives no total_cost_usd, or that
--                           have none (left out of spent_usd)
--   bound_usd      DOUBLE   the registered bound (NULL when none is registered)
--   bound_spawns   BIGINT
--   share_usd      DOUBLE   spent_usd / bound_usd, to 4 places; NULL when the bound is 0 (no share)
--   share_spawns   DOUBLE   spawns / bound_spawns, to 4 places; NULL when the bound is 0
--   within         BOOLEAN  both within their bounds; NULL when no bound is registered, or when
--                           unpriced spawns leave it unknown (spent_usd and spawns within)
-- order:   probe

with

-- Every probe loaded, its spawns or none.
spent as (
    select
        p.probe,
        round(coalesce(sum(case when m.cost::DOUBLE > s.cost_usd * 1.01 then m.cost::DOUBLE else s.cost_usd end), 0), 6) as spent_usd,
        count(s.probe) as spawns,
        count(s.probe) filter (
            where s.cost_usd is null and (s.envelope is not null or s.exit_code not between 1 and 127 or s.exit_code = 124 or c.session_id is not null or t.session_id is not null)
        ) as unpriced
    from (select distinct probe from source_files) as p
    left join spawns as s using (probe)
    left join (select distinct probe, session_id from tool_uses) as c on c.probe = s.probe and c.session_id = s.session_id
    left join (select distinct session_id from transcript_sessions) as t on t.session_id = s.session_id
    left join (select session_id, sum(cost_usd) as cost from transcript_messages group by session_id) as m on m.session_id = s.session_id
    group by p.probe
),

final as (
    select
        s.probe,
        s.spent_usd,
        s.spawns,
        s.unpriced,
        b.usd as bound_usd,
        b.spawns as bound_spawns,
        round(s.spent_usd / nullif(b.usd, 0), 4) as share_usd,
        round(s.spawns / nullif(b.spawns, 0), 4) as share_spawns,
        case
            when b.probe is null then null
            when s.spent_usd > b.usd or s.spawns > b.spawns then false
            when s.unpriced > 0 then null
            else true
        end as within
    from spent as s
    left join budgets as b using (probe)
)

select * from final
order by probe
