package com.example.identity.keys;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

interface SigningKeyRepository extends JpaRepository<SigningKeyRecord, String> {

    /** Keys that still sign or verify, newest first. */
    List<SigningKeyRecord> findByRetiredAtIsNullOrderByCreatedAtDesc();
}
