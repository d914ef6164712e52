package com.example.identity.audit;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

interface AuditRecordRepository extends JpaRepository<AuditRecord, Long> {

    Page<AuditRecord> findAllByOrderByOccurredAtDescIdDesc(Pageable page);
}
