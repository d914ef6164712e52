package com.example.identity.audit;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import java.time.Instant;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface AuditRecordRepository extends JpaRepository<AuditRecord, Long> {

    Page<AuditRecord> findAllByOrderByOccurredAtDescIdDesc(Pageable page);

    @Modifying
    @Query("delete from AuditRecord a where a.occurredAt < :cutoff")
    int deleteOlderThan(@Param("cutoff") Instant cutoff);
}
