-- extract_skill_results: what `extract` writes to skill_results.jsonl, from the transcripts.
--
-- reads:   spawns, transcript_tool_uses, transcript_tool_results, transcript_files
-- params:  none
-- returns: one row per Skill call of a spawn, paired with its result
--   session_id   VARCHAR
--   arm          VARCHAR
--   tool_use_id  VARCHAR
--   skill        VARCHAR
--   is_error     BOOLEAN  NULL when no tool_result answered the call
--   result       VARCHAR  the tool_result text, NULL likewise
--   source       VARCHAR  the transcript file of the call (for messages, not written)
--   rec          BIGINT   its record number in that file
--   result_source VARCHAR the transcript file of the result, NULL when unanswered (for messages)
--   result_rec   BIGINT   its record number in that file
-- order:   seq, call order

select
    s.session_id,
    s.arm,
    t.tool_use_id,
    t.skill,
    r.is_error,
    r.result,
    f.abs as source,
    t.rec,
    rf.abs as result_source,
    r.rec as result_rec
from transcript_tool_uses as t
join spawns as s using (session_id)
join transcript_files as f on f.file = t.file
left join transcript_tool_results as r using (session_id, tool_use_id)
left join transcript_files as rf on rf.file = r.file
where t.skill is not null
order by s.seq, t.ordinal
