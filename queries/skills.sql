-- skills: one row per Skill call, paired with the tool_result that answered it.
--
-- A Skill call is tool Skill with input key skill (older builds: command), or tool SlashCommand
-- with {"command":"/name"}. From records, the pairs are skill_results.jsonl; from transcripts,
-- tool_use is paired with tool_result by id within the session, sub-agent calls included.
--
-- reads:   skill_calls, tool_uses, transcript_tool_uses, transcript_tool_results, spawns
-- params:  from  'records' or 'transcripts'
-- returns: one row per call
--   probe        VARCHAR  the probe (NULL for a session that belongs to no loaded probe)
--   seq          BIGINT   the spawn's seq (NULL likewise)
--   arm          VARCHAR  the spawn's arm (NULL likewise)
--   session_id   VARCHAR
--   tool_use_id  VARCHAR
--   skill        VARCHAR  the name the call gave
--   is_error     BOOLEAN  the result was an error (is_error, an "Error:" toolUseResult, or
--                         <tool_use_error>); NULL when no result answered the call
--   result       VARCHAR  the tool_result text
--   definition   VARCHAR  the namespace of the definition that answered, from the launched name
--                         ("Launching skill: ns:name") or the call's own; NULL when it failed or
--                         the name has no namespace
-- order:   probe, seq, session_id, call order
-- With probes loaded, transcripts of sessions that are not spawns of a probe are left out.

with

from_records as (
    select
        c.probe,
        s.seq,
        c.arm,
        c.session_id,
        -- call order is the call's place in the tool_use file; skill_results.jsonl's lines break a tie
        t.ordinal,
        c.ordinal as line,
        c.tool_use_id,
        c.skill,
        c.is_error,
        c.result
    from skill_calls as c
    left join tool_uses as t using (probe, session_id, tool_use_id)
    left join spawns as s using (probe, session_id)
    where $from = 'records'
),

from_transcripts as (
    select
        s.probe,
        s.seq,
        s.arm,
        t.session_id,
        t.ordinal,
        null as line,
        t.tool_use_id,
        t.skill,
        r.is_error,
        r.result
    from transcript_tool_uses as t
    left join transcript_tool_results as r using (session_id, tool_use_id)
    left join spawns as s using (session_id)
    where $from = 'transcripts'
      and t.skill is not null
      and (s.session_id is not null or not exists (select 1 from spawns))
),

calls as (
    select * from from_records
    union all
    select * from from_transcripts
),

final as (
    select
        probe,
        seq,
        arm,
        session_id,
        ordinal,
        line,
        tool_use_id,
        skill,
        is_error,
        result,
        coalesce(nullif(regexp_extract(result, '^Launching (?:skill|command): /?(\S+)', 1), ''), skill) as launched
    from calls
)

select
    probe,
    seq,
    arm,
    session_id,
    tool_use_id,
    skill,
    is_error,
    result,
    case when is_error = false and contains(launched, ':') then split_part(launched, ':', 1) end as definition
from final
order by probe nulls last, seq nulls last, session_id, ordinal, line
