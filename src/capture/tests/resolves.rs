//! Resolves in a capture (version 1.2): written, read back, and refused when the manifest lies.

use super::*;

/// A resolve of slice 1 of a 4x2, 4-sample, 2-slice `R8G8B8A8_TYPELESS` texture as `R8G8B8A8_UNORM` into mip 1
/// (4x2) of an 8x4 `R8G8B8A8_UNORM` texture of 2 mips (subresource 1).
pub(super) fn record() -> ResolveRecord {
    let mut source = shape(ResourceDimension::Texture2D, Format::R8G8B8A8Typeless, [4, 2, 1], 2, 1);
    source.sample_count = 4;
    ResolveRecord {
        api_call: Some("ResolveSubresource(dst, 1, src, 1, R8G8B8A8_UNORM)".into()),
        format: Format::R8G8B8A8Unorm,
        source,
        source_subresource: 1,
        // 4 planes of 4x2 texels of 4 bytes
        source_data: bytes(128, 70),
        destination: shape(ResourceDimension::Texture2D, Format::R8G8B8A8Unorm, [8, 4, 1], 1, 2),
        destination_subresource: 1,
        destination_before: bytes(32, 80),
        destination_after: Some(bytes(32, 90)),
    }
}

/// A capture of a draw, the resolve, and another draw.
fn archive() -> Vec<u8> {
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&every_field_draw()).unwrap();
    assert_eq!(writer.add_resolve(&record()).unwrap(), 0);
    writer.add_draw(&every_field_draw()).unwrap();
    writer.finish_to_vec().unwrap()
}

/// The problem of resolve 0 of `archive` once `edit` changed its manifest entry (`m["resolves"][0]`).
fn problem(edit: impl Fn(&mut serde_json::Value)) -> Error {
    let edited = with_manifest(&archive(), |m| edit(&mut m["resolves"][0]));
    let mut capture = Capture::open(edited).unwrap();
    let problem = capture.resolve_problem(0).cloned().expect("a problem");
    assert_eq!(capture.resolve(0).unwrap_err(), problem);
    assert_eq!(capture.check().unwrap_err(), problem);
    // the draws are still read
    capture.draw(0).unwrap();
    problem
}

#[test]
fn a_resolve_reads_back_where_it_came_with_every_sample() {
    let mut capture = Capture::open(archive()).unwrap();
    assert_eq!(capture.manifest().version, "1.5");
    assert_eq!(capture.resolves().len(), 1);
    assert_eq!(capture.resolves()[0].before_draw, 1);
    capture.check().unwrap();
    let resolve = capture.resolve(0).unwrap();
    let written = record();
    assert_eq!(resolve.before_draw, 1);
    assert_eq!(resolve.api_call, written.api_call);
    assert_eq!(
        resolve.label,
        "ResolveSubresource(dst, 1, src, 1, R8G8B8A8_UNORM) [R8G8B8A8_UNORM 4x2 4x]"
    );
    assert_eq!(
        resolve.layout,
        ResolveLayout {
            format: Format::R8G8B8A8Unorm,
            width: 4,
            height: 2,
            samples: 4,
            source_bytes: 128,
            destination_bytes: 32,
        }
    );
    assert_eq!((resolve.source, resolve.source_subresource), (written.source, 1));
    assert_eq!(
        (resolve.destination, resolve.destination_subresource),
        (written.destination, 1)
    );
    assert_eq!(resolve.samples, written.source_data);
    assert_eq!(resolve.before, written.destination_before);
    assert_eq!(resolve.after, written.destination_after);
    assert!(capture.resolve(1).is_err());
}

#[test]
fn captures_without_resolves_are_read_and_written_without_the_list() {
    // 1.0 and 1.1 manifests have no `resolves`; a capture without resolves is written without the field.
    for version in ["1.0", "1.1"] {
        let archive = with_manifest(&simple_archive(), |m| m["version"] = version.into());
        let capture = Capture::open(archive).unwrap();
        assert!(capture.resolves().is_empty());
        capture.check().unwrap();
    }
    let manifest: serde_json::Value = {
        let mut zip = zip::ZipArchive::new(Cursor::new(simple_archive())).unwrap();
        serde_json::from_reader(zip.by_name(MANIFEST_NAME).unwrap()).unwrap()
    };
    assert!(manifest.get("resolves").is_none());
}

#[test]
fn a_lying_blob_size_is_named_with_the_resolve_and_side() {
    let error = problem(|r| r["source"]["data"]["size"] = 127.into());
    assert_eq!(error.at, "resolve 0 source data");
    assert!(
        error
            .detail
            .contains("has 127 bytes where a 4x2 surface of R8G8B8A8_UNORM with 4 samples takes 128"),
        "{error}"
    );
    // a size the manifest and the blob agree on but the subresource does not: the destination's after cut short
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&every_field_draw()).unwrap();
    let short = writer.add_blob(&[1, 2, 3]).unwrap();
    let mut entry = {
        let capture = Capture::open(archive()).unwrap();
        capture.resolves()[0].clone()
    };
    for blob in [&record().source_data, &record().destination_before] {
        writer.add_blob(blob).unwrap();
    }
    entry.destination.after = Some(short);
    let error = writer.add_resolve_entry(entry).unwrap_err();
    assert_eq!(error.at, "resolve 0 destination after");
    assert!(
        error
            .detail
            .contains("has 3 bytes where a 4x2 surface of R8G8B8A8_UNORM takes 32"),
        "{error}"
    );
}

#[test]
fn a_missing_or_truncated_blob_is_a_problem_of_the_resolve() {
    let gone = BlobId::of(&record().destination_before);
    let archive = rezip(&archive(), |name, data| {
        (name != gone.entry_name()).then(|| data.to_vec())
    });
    let mut capture = Capture::open(archive).unwrap();
    let error = capture.resolve(0).unwrap_err();
    assert_eq!(error.at, "resolve 0 destination before");
    assert!(error.detail.contains("is missing from the archive"), "{error}");
    // a blob cut short in the archive: the directory's size differs from the reference's
    let cut = BlobId::of(&record().source_data);
    let archive = rezip(&self::archive(), |name, data| {
        Some(if name == cut.entry_name() {
            data[..100].to_vec()
        } else {
            data.to_vec()
        })
    });
    let mut capture = Capture::open(archive).unwrap();
    let error = capture.resolve(0).unwrap_err();
    assert_eq!(error.at, "resolve 0 source data");
    assert!(
        error
            .detail
            .contains("128 bytes in the manifest but 100 in the archive"),
        "{error}"
    );
}

#[test]
fn resources_that_do_not_fit_the_resolve_are_refused() {
    // a typed resource of another format than the resolve's
    let error = problem(|r| r["destination"]["resource"]["format"] = "B8G8R8A8_UNORM".into());
    assert_eq!(error.at, "resolve 0 destination resource");
    assert!(
        error
            .detail
            .contains("a resource of B8G8R8A8_UNORM cannot be resolved as R8G8B8A8_UNORM"),
        "{error}"
    );
    // a single-sampled source
    let error = problem(|r| {
        r["source"]["resource"]["sample_count"] = 1.into();
        r["source"]["data"] = r["destination"]["before"].clone();
    });
    assert_eq!(error.at, "resolve 0 source resource");
    assert!(
        error.detail.contains("only a multisampled resource is resolved"),
        "{error}"
    );
    // a multisampled destination
    let error = problem(|r| r["destination"]["resource"]["sample_count"] = 2.into());
    assert_eq!(error.at, "resolve 0 destination resource");
    // a shape D3D11 would not create
    let error = problem(|r| r["source"]["resource"]["width"] = 0.into());
    assert_eq!(error.at, "resolve 0 source resource");
    // a destination of another size: mip 0 (8x4) of the destination
    let error = problem(|r| r["destination"]["subresource"] = 0.into());
    assert_eq!(error.at, "resolve 0 destination subresource");
    assert!(error.detail.contains("is 8x4 and the source's 4x2"), "{error}");
}

#[test]
fn a_subresource_past_the_resource_is_refused() {
    let error = problem(|r| r["source"]["subresource"] = 2.into());
    assert_eq!(error.at, "resolve 0 source subresource");
    assert!(
        error
            .detail
            .contains("subresource 2 is past the 2 of the resource (1 mip levels x 2 slices)"),
        "{error}"
    );
    let error = problem(|r| r["destination"]["subresource"] = u32::MAX.into());
    assert_eq!(error.at, "resolve 0 destination subresource");
}

#[test]
fn formats_without_a_resolve_are_refused() {
    for (format, why) in [
        ("R8G8B8A8_UINT", "integer format"),
        ("R8G8B8A8_TYPELESS", "typeless"),
        ("D24_UNORM_S8_UINT", "depth data"),
        ("R24_UNORM_X8_TYPELESS", "depth data"),
        ("BC1_UNORM", "not a render target format"),
        ("R9G9B9E5_SHAREDEXP", "not a render target format"),
    ] {
        let error = problem(|r| r["format"] = format.into());
        assert_eq!(error.at, "resolve 0 format", "{format}");
        assert!(error.detail.contains(why), "{format}: {error}");
    }
}

#[test]
fn a_resolve_out_of_the_frame_is_refused() {
    let error = problem(|r| r["before_draw"] = 3.into());
    assert_eq!(error.at, "resolve 0 before_draw");
    assert!(error.detail.contains("3 is past the capture's 2 draws"), "{error}");
    // two resolves out of order
    let edited = with_manifest(&archive(), |m| {
        let mut first = m["resolves"][0].clone();
        first["before_draw"] = 2.into();
        m["resolves"] = serde_json::json!([first, m["resolves"][0].clone()]);
    });
    let capture = Capture::open(edited).unwrap();
    assert!(capture.resolve_problem(0).is_none());
    let error = capture.resolve_problem(1).unwrap();
    assert_eq!(error.at, "resolve 1 before_draw");
    assert!(
        error.detail.contains("resolves are listed in the frame's order"),
        "{error}"
    );
}

#[test]
fn a_field_of_the_wrong_type_is_named_with_the_resolve_and_side() {
    let edited = with_manifest(&archive(), |m| {
        m["resolves"][0]["destination"]["subresource"] = "one".into()
    });
    let error = Capture::open(edited).unwrap_err();
    assert_eq!(error.at, "resolve 0 destination subresource");
    let edited = with_manifest(&archive(), |m| {
        m["resolves"][0]["source"].as_object_mut().unwrap().remove("data");
    });
    let error = Capture::open(edited).unwrap_err();
    assert_eq!(error.at, "resolve 0 source");
    assert!(error.detail.contains("missing field `data`"), "{error}");
    let edited = with_manifest(&archive(), |m| m["resolves"][0]["format"] = "R8G8B8A8_BOGUS".into());
    assert_eq!(Capture::open(edited).unwrap_err().at, "resolve 0 format");
}

#[test]
fn the_writer_refuses_what_the_reader_would() {
    let mut writer = CaptureWriter::in_memory();
    let mut bad = record();
    bad.format = Format::R8G8B8A8Uint;
    bad.destination.format = Format::R8G8B8A8Uint;
    let error = writer.add_resolve(&bad).unwrap_err();
    assert_eq!(error.at, "resolve 0 format");
    let mut bad = record();
    bad.source_data = bytes(64, 1);
    assert_eq!(writer.add_resolve(&bad).unwrap_err().at, "resolve 0 source data");
    assert_eq!(writer.resolve_count(), 0);
    writer.add_resolve(&record()).unwrap();
    assert_eq!(writer.resolve_count(), 1);
}
