-- cost: what each probe spent, with its budget bound and the share of it used.
--
-- reads:   source_files, spawns, budgets
-- params:  none
-- returns: one row per probe
--   probe           VARCHAR
--   total_cost_usd  DOUBLE   the sum of the envelopes' total_cost_usd, to the micro-dollar
--   spawns          BIGINT   results.jsonl rows
--   envelopes       BIGINT   rows with an envelope (a spawn that exits before a session has none)
--   unpriced        BIGINT   rows whose envelope gives no total_cost_usd (an unknown cost, left out
--                            of total_cost_usd)
--   budget_usd      DOUBLE   the registered bound, NULL when none
--   budget_spawns   BIGINT
--   share_usd       DOUBLE   total_cost_usd / budget_usd, to 4 places
--   share_spawns    DOUBLE   spawns / budget_spawns, to 4 places
-- order:   probe

with

-- Every probe loaded, its spawns or none.
totals as (
    select
        p.probe,
        round(coalesce(sum(s.cost_usd), 0), 6) as total_cost_usd,
        count(s.probe) as spawns,
        count(s.envelope) as envelopes,
        count(s.probe) filter (where s.envelope is not null and s.cost_usd is null) as unpriced
    from (select distinct probe from source_files) as p
    left join spawns as s using (probe)
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
    round(t.total_cost_usd / b.usd, 4) as share_usd,
    round(t.spawns / b.spawns, 4) as share_spawns
from totals as t
left join budgets as b using (probe)
order by t.probe
