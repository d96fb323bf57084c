-- Conjunct numbers run 1..N within a probe, with no gap and no repeat: the first conjunct record, by
-- number (then file and line), that repeats the number before it (prev_*), or whose number is not
-- its rank. Records of one number go in registration order: each file at its place
-- (omg_registration_place).
with file_rank as (
    select distinct file, omg_registration_place(rel) as place from records where kind = 'registration'
)
select file, rec, n, rank, prev_n, prev_file, prev_rec from (
    select probe, file, rec, n, row_number() over w as rank,
           lag(n) over w as prev_n, lag(file) over w as prev_file, lag(rec) over w as prev_rec
    from (select probe, file, rec, (json ->> 'n')::BIGINT as n
          from records where kind = 'registration' and (json ->> 'kind') = 'conjunct')
    join file_rank using (file)
    window w as (partition by probe order by n, place, file, rec))
where n = prev_n or n <> rank
order by probe, rank limit 1
