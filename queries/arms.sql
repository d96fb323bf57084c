-- arms: the per-arm result table, one row per arm in registration order.
--
-- Facts are over the arm's spawns that are not pilots; a void arm's spawns are described and
-- marked void. An arm the registration does not name comes last.
--
-- reads:   spawns, registered_arms, tool_uses, skill_calls, artifacts, markers,
--          permission_denials, pilot_sessions, void_arms, trigger_results
-- params:  none
-- returns: one row per arm
--   probe          VARCHAR
--   arm            VARCHAR
--   phase          VARCHAR
--   registered_n   BIGINT    the registered n (NULL when unregistered)
--   n              BIGINT    spawns described: the arm's spawns less its pilots
--   status         VARCHAR   counted | void | not run | unregistered
--   exit_codes     STRUCT[]  {code, spawns}, by code
--   tools          STRUCT[]  {name, count}: tool_use records over the spawns, by name
--   skills         STRUCT[]  {skill, definition, spawns}: skills launched, and by how many spawns
--   unknown_skills STRUCT[]  {skill, spawns}: skills the CLI answered "Unknown skill", by how many spawns
--   artifacts      STRUCT[]  {label, present, absent}: by label, the spawns that found its file and those that
--                            did not (a spawn listing a label twice counts once, present when either was)
--   markers        STRUCT[]  {marker, spawns}: LABEL (in REPO) or LABEL@DIR, by how many spawns
--   denials        BIGINT    permission denials in the envelopes
--   errors         VARCHAR[] first stderr line of each distinct failure
--   notes          VARCHAR[] pilots, void, replacement, trigger
-- order:   probe, registration order, arm

with

described as (
    select *
    from spawns
    where status <> 'pilot'
),

arm_list as (
    select probe, ordinal, arm, phase, n as registered_n, trigger, addendum, replaces
    from registered_arms
    union all
    select probe, null, arm, min(phase), null, null, null, null
    from spawns as s
    where not exists (select 1 from registered_arms as r where r.probe = s.probe and r.arm = s.arm)
    group by probe, arm
),

exits as (
    select probe, arm, list({'code': exit_code, 'spawns': k} order by exit_code) as exit_codes
    from (select probe, arm, exit_code, count(*) as k from described group by all)
    group by all
),

tools as (
    select probe, arm, list({'name': name, 'count': k} order by name) as tools
    from (
        select d.probe, d.arm, t.name, count(*) as k
        from described as d
        join tool_uses as t using (probe, session_id)
        group by all
    )
    group by all
),

calls as (
    select
        probe,
        arm,
        session_id,
        skill,
        is_error,
        unknown,
        -- the namespace of the definition that answered, as skills.sql gives it
        case when is_error = false and contains(launched, ':') then split_part(launched, ':', 1) end as definition
    from (
        select
            d.probe,
            d.arm,
            d.session_id,
            c.skill,
            c.is_error,
            coalesce(c.result, '') like '%Unknown skill%' as unknown,
            coalesce(nullif(regexp_extract(c.result, '^Launching (?:skill|command): /?(\S+)', 1), ''), c.skill) as launched
        from described as d
        join skill_calls as c using (probe, session_id)
    )
),

skills as (
    select probe, arm, list({'skill': skill, 'definition': definition, 'spawns': k} order by k desc, skill) as skills
    from (
        select probe, arm, skill, definition, count(distinct session_id) as k
        from calls
        where is_error = false
        group by all
    )
    group by all
),

unknown_skills as (
    select probe, arm, list({'skill': skill, 'spawns': k} order by k desc, skill) as unknown_skills
    from (
        select probe, arm, skill, count(distinct session_id) as k
        from calls
        where unknown
        group by all
    )
    group by all
),

checked as (
    select probe, arm, list({'label': label, 'present': present, 'absent': absent} order by first) as artifacts
    from (
        select probe, arm, label, count(*) filter (where present) as present, count(*) filter (where not present) as absent, min(first) as first
        from (
            -- spawns, not items: one that lists a label twice counts once, present when any of its files was
            select d.probe, d.arm, d.session_id, a.label, bool_or(a.present) as present, min({'seq': d.seq, 'ordinal': a.ordinal}) as first
            from described as d
            join artifacts as a using (probe, session_id)
            group by all
        )
        group by all
    )
    group by all
),

found as (
    select probe, arm, list({'marker': marker, 'spawns': k} order by first) as markers
    from (
        select
            d.probe,
            d.arm,
            case when m.dir = 'REPO' then m.label else m.label || '@' || m.dir end as marker,
            count(distinct d.session_id) as k,
            min({'seq': d.seq, 'ordinal': m.ordinal}) as first
        from described as d
        join markers as m using (probe, session_id)
        group by all
    )
    group by all
),

denials as (
    select d.probe, d.arm, count(*) as denials
    from described as d
    join permission_denials as p using (probe, session_id)
    group by all
),

errors as (
    select probe, arm, list(distinct line order by line) as errors
    from (
        -- a CRLF file's line ends in \r\n: the \r is not part of the line
        select probe, arm, regexp_split_to_array(trim(stderr), '\r?\n')[1] as line
        from described
        where exit_code <> 0 and coalesce(trim(stderr), '') <> ''
    )
    group by all
),

pilots as (
    select s.probe, s.arm, count(*) as k, min(p.addendum) as addendum
    from spawns as s
    join pilot_sessions as p using (probe, session_id)
    group by all
),

final as (
    select
        a.probe,
        a.ordinal,
        a.arm,
        a.phase,
        a.registered_n,
        coalesce((select count(*) from described as d where d.probe = a.probe and d.arm = a.arm), 0) as n,
        case
            when v.arm is not null then 'void'
            when a.ordinal is null then 'unregistered'
            when a.trigger is not null and not coalesce(t.fired, false)
                 and not exists (select 1 from described as d where d.probe = a.probe and d.arm = a.arm) then 'not run'
            else 'counted'
        end as status,
        coalesce(e.exit_codes, []) as exit_codes,
        coalesce(o.tools, []) as tools,
        coalesce(k.skills, []) as skills,
        coalesce(u.unknown_skills, []) as unknown_skills,
        coalesce(c.artifacts, []) as artifacts,
        coalesce(f.markers, []) as markers,
        coalesce(dn.denials, 0) as denials,
        coalesce(er.errors, []) as errors,
        list_filter([
            case when p.k > 0 then format('{} pilot spawn(s) not counted (addendum {})', p.k, p.addendum) end,
            case when v.arm is not null then format('VOID (addendum {}): {}', v.addendum, v.reason) end,
            -- registered_arms' addendum: the record's, or its file's number
            case when a.replaces is not null then 'replaces ' || a.replaces || coalesce(format(' (addendum {})', a.addendum), '') end,
            case when a.trigger is not null then
                format('conditional: trigger {} ({})', case when t.fired then 'fired' else 'did not fire' end, coalesce(t.observed, 'not evaluated'))
            end
        ], x -> x is not null) as notes
    from arm_list as a
    left join exits as e using (probe, arm)
    left join tools as o using (probe, arm)
    left join skills as k using (probe, arm)
    left join unknown_skills as u using (probe, arm)
    left join checked as c using (probe, arm)
    left join found as f using (probe, arm)
    left join denials as dn using (probe, arm)
    left join errors as er using (probe, arm)
    left join pilots as p using (probe, arm)
    left join (select distinct on (probe, arm) * from void_arms order by probe, arm, addendum) as v using (probe, arm)
    left join trigger_results as t using (probe, arm)
)

select * exclude (ordinal) from final
order by probe, ordinal nulls last, arm
