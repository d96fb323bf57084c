-- spawn_notes as export writes it: notes.jsonl sits at the probe's root, so its name is its path
-- relative to the probe.
select * replace (regexp_extract(file, '[^/\\]*$') as file) from spawn_notes
