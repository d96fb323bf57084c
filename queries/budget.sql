-- budget: what each probe spent, against the bounds its registration sets.
--
-- Every spawn counts against the budget, pilots and void ones included: the money was spent.
--
-- reads:   spawns, budgets
-- params:  none
-- returns: one row per probe
--   probe          VARCHAR
--   spent_usd      DOUBLE   the sum of the envelopes' total_cost_usd, to the micro-dollar
--   spawns         BIGINT   results.jsonl rows
--   bound_usd      DOUBLE   the registered bound (NULL when none is registered)
--   bound_spawns   BIGINT
--   share_usd      DOUBLE   spent_usd / bound_usd, to 4 places
--   share_spawns   DOUBLE   spawns / bound_spawns, to 4 places
--   within         BOOLEAN  both within their bounds (NULL when no bound is registered)
-- order:   probe

with

spent as (
    select
        probe,
        round(coalesce(sum(cost_usd), 0), 6) as spent_usd,
        count(*) as spawns
    from spawns
    group by probe
),

final as (
    select
        s.probe,
        s.spent_usd,
        s.spawns,
        b.usd as bound_usd,
        b.spawns as bound_spawns,
        round(s.spent_usd / b.usd, 4) as share_usd,
        round(s.spawns / b.spawns, 4) as share_spawns,
        case when b.probe is not null then s.spent_usd <= b.usd and s.spawns <= b.spawns end as within
    from spent as s
    left join budgets as b using (probe)
)

select * from final
order by probe
