-- uniformity: the claude_version and the main model of every spawn, grouped by value.
--
-- A spawn's main model is the model of its envelope's modelUsage with the largest cost. The
-- majority value is the one most spawns share; every other value is an outlier.
--
-- reads:   spawns, model_usage
-- params:  none
-- returns: one row per probe, aspect and value
--   probe     VARCHAR
--   aspect    VARCHAR    claude_version | main_model
--   value     VARCHAR    NULL for main_model when a spawn has no envelope
--   spawns    BIGINT
--   majority  BOOLEAN    the value most spawns share (NULL for spawns with no envelope)
--   sessions  VARCHAR[]  "ARM sid8" of its spawns, in seq order
-- order:   probe, aspect, majority desc, value

with

main_model as (
    select
        probe,
        session_id,
        arg_max(model, [cost_usd, 0]) as model
    from (select probe, session_id, model, coalesce(cost_usd, 0) as cost_usd from model_usage)
    group by all
),

per_spawn as (
    select s.probe, s.seq, s.arm, s.session_id, 'claude_version' as aspect, s.claude_version as value
    from spawns as s
    union all
    select s.probe, s.seq, s.arm, s.session_id, 'main_model' as aspect, m.model as value
    from spawns as s
    left join main_model as m using (probe, session_id)
),

grouped as (
    select
        probe,
        aspect,
        value,
        count(*) as spawns,
        list(arm || ' ' || left(session_id, 8) order by seq) as sessions
    from per_spawn
    group by all
),

final as (
    select
        probe,
        aspect,
        value,
        spawns,
        case when value is not null then
            row_number() over (partition by probe, aspect order by (value is null), spawns desc, value) = 1
        end as majority,
        sessions
    from grouped
)

select * from final
order by probe, aspect, majority desc nulls last, value nulls last
