-- completeness: every registered arm against the spawns it ran, and every arm that ran unregistered.
--
-- A void arm is shown and excluded. A conditional arm is expected to run only when its trigger
-- fired; one that did not fire is complete with no spawn. Pilot spawns never count.
--
-- reads:   registered_arms, spawns, void_arms, trigger_results
-- params:  none
-- returns: one row per arm
--   probe         VARCHAR
--   ordinal       BIGINT   registration order (NULL for an unregistered arm)
--   arm           VARCHAR
--   phase         VARCHAR
--   registered_n  BIGINT   the n the registration gives (NULL when unregistered)
--   counted       BIGINT   spawns that count
--   pilots        BIGINT   pilot spawns (shown, not counted)
--   void_spawns   BIGINT   spawns of a void arm (shown, not counted)
--   expectation   VARCHAR  run | void | not run (trigger did not fire) | unregistered
--   complete      BOOLEAN  counted = registered_n for an arm that should run; no spawn for one that should not
--   note          VARCHAR  why, in words, when there is something to say
-- order:   probe, ordinal, arm

with

spawn_counts as (
    select
        probe,
        arm,
        count(*) filter (where status = 'counted') as counted,
        count(*) filter (where status = 'pilot') as pilots,
        count(*) filter (where status = 'void') as void_spawns
    from spawns
    group by all
),

arms as (
    select
        r.probe,
        r.ordinal,
        r.arm,
        r.phase,
        r.n as registered_n,
        coalesce(c.counted, 0) as counted,
        coalesce(c.pilots, 0) as pilots,
        coalesce(c.void_spawns, 0) as void_spawns,
        case
            when v.arm is not null then 'void'
            when r.trigger is not null and not coalesce(t.fired, false) then 'not run'
            else 'run'
        end as expectation,
        v.reason as void_reason,
        v.addendum as void_addendum,
        t.observed
    from registered_arms as r
    left join spawn_counts as c using (probe, arm)
    left join (select distinct on (probe, arm) * from void_arms order by probe, arm, addendum) as v using (probe, arm)
    left join trigger_results as t using (probe, arm)
),

unregistered as (
    select
        c.probe,
        null::BIGINT as ordinal,
        c.arm,
        (select min(phase) from spawns as s where s.probe = c.probe and s.arm = c.arm) as phase,
        null::BIGINT as registered_n,
        c.counted,
        c.pilots,
        c.void_spawns,
        'unregistered' as expectation,
        null as void_reason,
        null::BIGINT as void_addendum,
        null as observed
    from spawn_counts as c
    where not exists (select 1 from registered_arms as r where r.probe = c.probe and r.arm = c.arm)
),

final as (
    select
        probe,
        ordinal,
        arm,
        phase,
        registered_n,
        counted,
        pilots,
        void_spawns,
        expectation,
        case expectation
            when 'void' then true
            when 'not run' then counted = 0
            when 'unregistered' then false
            else counted = registered_n
        end as complete,
        case
            when expectation = 'void' then format('void (addendum {}): {}', void_addendum, void_reason)
            when expectation = 'not run' and counted = 0 then format('not run: its trigger did not fire ({})', coalesce(observed, 'no trigger result'))
            when expectation = 'not run' then format('{} spawn(s) ran though its trigger did not fire ({})', counted, observed)
            when expectation = 'unregistered' then format('{} spawn(s) of an arm the registration does not name', counted)
            when counted < registered_n then format('{} of {} registered spawns counted', counted, registered_n)
            when counted > registered_n then format('{} counted spawns, {} registered', counted, registered_n)
        end as note
    from (select * from arms union all select * from unregistered)
)

select * from final
order by probe, ordinal nulls last, arm
