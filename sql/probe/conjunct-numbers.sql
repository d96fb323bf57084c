-- Conjunct numbers run 1..N within a probe, with no gap and no repeat: the first conjunct record, by
-- number (then file and line), that repeats the number before it (prev_*), or whose number is not
-- its rank.
select file, rec, n, rank, prev_n, prev_file, prev_rec from (
    select probe, file, rec, n, row_number() over w as rank,
           lag(n) over w as prev_n, lag(file) over w as prev_file, lag(rec) over w as prev_rec
    from (select probe, file, rec, (json ->> 'n')::BIGINT as n
          from records where kind = 'registration' and (json ->> 'kind') = 'conjunct')
    window w as (partition by probe order by n, file, rec))
where n = prev_n or n <> rank
order by probe, rank limit 1
