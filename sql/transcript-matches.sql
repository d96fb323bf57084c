-- Per probe, its spawns and how many of them a loaded transcript holds the session of
-- (Evidence.transcriptMatches): a transcripts folder that matches none is worth a warning.
select probe,
       count(*)::INTEGER as spawns,
       count(*) filter (where session_id in (select session_id from transcript_sessions))::INTEGER as matched
from spawns
group by probe
order by probe
