-- cost: what each probe spent, with its budget bound and the share of it used.
--
-- reads:   source_files, spawns, tool_uses, transcript_sessions, budgets
-- params:  none
-- returns: one row per probe
--   probe           VARCHAR
--   total_cost_usd  DOUBLE   the sum of the envelopes' total_cost_usd, to the micro-dollar
--   spawns          BIGINT   results.jsonl rows
--   envelopes       BIGINT   rows with an envelope (a spawn that exits before a session has none)
--   unpriced        BIGINT   rows that ran and give no total_cost_usd: an envelope without it, or none
--                            for a spawn that exited 0, made a tool call or has a transcript (an
--                            unknown cost, left out of total_cost_usd; budget.sql counts them so)
--   budget_usd      DOUBLE   the registered bound, NULL when none
--   budget_spawns   BIGINT
--   share_usd       DOUBLE   total_cost_usd / budget_usd, to 4 places; NULL when the bound is 0 (no share)
--   share_spawns    DOUBLE   spawns / budget_spawns, to 4 places; NULL when the bound is 0
-- order:   probe

with

-- Every probe loaded, its spawns or none.
totals as (
    select
        p.probe,
        round(coalesce(sum(s.cost_usd), 0), 6) as total_cost_usd,
        count(s.probe) as spawns,
        count(s.envelope) as envelopes,
        count(s.probe) filter (
            where s.cost_usd is null and (s.envelope is not null or s.exit_code not between 1 and 127 or s.exit_code = 124 or c.session_id is not null or t.session_id is not null)
        ) as unpriced
    from (select distinct probe from source_files) as p
    left join spawns as s using (probe)
    left join (select distinct probe, session_id from tool_uses) as c on c.probe = s.probe and c.session_id = s.session_id
    left join (select distinct session_id from transcript_sessions) as t on t.session_id = s.session_id
    group by p.probe
)

select
    t.probe,
    t.total_cost_usd,
    t.spawns,
    t.envelopes,
    t.unpriced,
    b.usd as budget_usd,
    b.spawns as budget_spawns,
    round(t.total_cost_usd / nullif(b.usd, 0), 4) as share_usd,
    round(t.spawns / nullif(b.spawns, 0), 4) as share_spawns
from totals as t
left join budgets as b using (probe)
order by t.probe
