-- extract_tool_uses: what `extract` writes to tool_use/<session_id>.jsonl, from the transcripts.
--
-- Names and input key names only, plus the skill a Skill call named and the agent_id of a
-- sub-agent's call, in transcript order. One row per results.jsonl row that has a transcript,
-- with an empty list when the spawn made no tool call; and one, with an empty list, per row that
-- opened no session (no transcript, no envelope, a non-zero exit: K-NEG), whose record is empty.
--
-- reads:   spawns, transcript_sessions, transcript_tool_uses, transcript_files
-- params:  none
-- returns: one row per spawn with a transcript or with no session
--   seq          BIGINT
--   session_id   VARCHAR
--   session      BOOLEAN  false for a spawn that opened no session
--   records      STRUCT[]  {id, name, input_keys, skill, agent_id, source, rec} in transcript order;
--                          source and rec say where each came from (for messages, not written)
-- order:   seq

with

matched as (
    select s.seq, s.session_id, s.envelope, s.exit_code,
           exists (select 1 from transcript_sessions as t where t.session_id = s.session_id) as session
    from spawns as s
),

covered as (
    select seq, session_id, session
    from matched
    where session or (envelope is null and exit_code <> 0)
),

calls as (
    select
        t.session_id,
        t.ordinal,
        {
            'id': t.tool_use_id,
            'name': t.name,
            'input_keys': t.input_keys,
            'skill': t.skill,
            'agent_id': t.agent_id,
            'source': f.abs,
            'rec': t.rec
        } as record
    from transcript_tool_uses as t
    join transcript_files as f using (file)
)

select
    c.seq,
    c.session_id,
    c.session,
    coalesce(list(k.record order by k.ordinal) filter (where k.record is not null), []) as records
from covered as c
left join calls as k using (session_id)
group by all
order by c.seq
