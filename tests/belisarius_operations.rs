//! Belisarius operations from the window (BE-08, BE-10): a march planned on the map and made,
//! units shared out between leaders, through the referee's app. The rules of operations are
//! tested beside them, in the campaign crate.

use std::path::Path;

use egui_kittest::Harness;
use referee::gui::RefereeApp;
use referee_campaign::Store;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::{Belisarius, Setup, World};
use referee_campaign::fixtures::belisarius::{byz, finish_belisarius_setup, goths, leaders_together, supply_phase, typed};
use referee_campaign::store::{Campaign, DiceInput};

/// The First Reconquest of Italy (`setup`) in a database at `path`, set up, supplied and in
/// its operations.
fn italy_in_operations(path: &Path, setup: &Setup) -> (Store, Campaign<Belisarius>) {
    let mut store = Store::open(path).unwrap();
    let mut c = store.create_as::<Belisarius>("Italy", setup, 535).unwrap();
    finish_belisarius_setup(&mut store, &mut c);
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    (store, c)
}

/// The referee's window, `height` points tall, on the Italy campaign at `path` as `side` sees
/// it, its first frame drawn.
fn window(path: &Path, side: &str, height: f32) -> Harness<'static, RefereeApp> {
    let app = RefereeApp::open_db(
        path,
        referee_campaign::magna_graecia::catalog::Catalog::embedded(),
        Some(World::embedded()),
        Some("Italy"),
        Some(side),
    )
    .unwrap();
    let mut h = Harness::builder().with_size(egui::vec2(1280.0, height)).build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app);
    h.run();
    h
}

/// BE-10, BE-12: from the window: the acting force's route is built from the map's
/// selection and marched; the march is paid for, and any attrition is shared out among the
/// units that marched before anything else.
#[test]
fn be_10_a_march_is_planned_on_the_map_and_made_from_the_window() {
    use egui_kittest::kittest::Queryable as _;
    use referee_campaign::belisarius::state::{Location, PieceKind};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.sqlite");
    let mut setup: Setup = World::embedded().setup("italy-535").unwrap();
    setup.sides.iter_mut().find(|s| s.id.as_str() == "ostrogoths").unwrap().cinc = Some("vitiges".to_owned());
    let (mut store, mut c) = italy_in_operations(&path, &setup);
    // The Byzantines pass; a Gothic leader with a neighbouring zone he may end a march in.
    store.execute(&mut c, &(), &Order::Pass { side: byz() }, DiceInput::Seeded).unwrap();
    let map = &c.state.setup.map;
    let enemy = byz();
    let free = |z: &referee_campaign::belisarius::map::Zone| {
        c.state.cities.get(&z.city.id).and_then(|h| h.holder.as_ref()) != Some(&enemy)
            && !c.state.pieces.iter().any(|p| {
                p.side == enemy
                    && p.kind.has_marker()
                    && match &p.at {
                        Location::Zone(id) => *id == z.id,
                        Location::City(city) => *city == z.city.id,
                        Location::Sea(_) | Location::Aboard(_) => false,
                    }
            })
    };
    let (leader, to) = c
        .state
        .pieces_of(&goths())
        .find_map(|p| {
            let PieceKind::Leader { leader, .. } = &p.kind else { return None };
            let zone = match &p.at {
                Location::Zone(z) => map.zone(z)?,
                Location::City(city) => map.zone_of_city(city)?,
                Location::Sea(_) | Location::Aboard(_) => return None,
            };
            let to = zone.neighbours.iter().filter_map(|n| map.zone(n)).find(|n| free(n))?;
            Some((leader.clone(), to.clone()))
        })
        .expect("a Gothic leader with somewhere to march");
    drop(store);
    let name = c.state.setup.leader(&leader).unwrap().name.clone();
    let mut h = window(&path, "ostrogoths", 900.0);
    h.get_by_label(&format!("Activate {name}")).click();
    h.run();
    h.state_mut().send(referee::gui::BelisariusCommand::SelectPlace(Some(Location::Zone(to.id.clone()))));
    h.run();
    h.get_by_label(&format!("Add {}", to.name)).click();
    h.run();
    assert!(h.query_all_by_label_contains(&format!("Route: {}", to.name)).next().is_some());
    h.get_by_label_contains("March (").click();
    h.run();
    assert!(h.state().message().is_none_or(|m| !m.is_error), "{:?}", h.state().message());
    let view = h.state().belisarius_view().unwrap();
    let org = view.organisations()[0];
    let moved = org.boxes.iter().find(|b| b.leader.as_ref().is_some_and(|l| l.id == leader)).unwrap();
    assert_eq!(moved.at, Location::Zone(to.id.clone()), "{name} marched");
    let ap = org.action_points.as_ref().unwrap();
    assert!(ap.left < ap.total, "the march was paid for");
    if let Some(due) = &org.attrition {
        assert!(h.query_all_by_label_contains(&format!("{} combat points lost to attrition", due.points)).next().is_some());
    }
}

/// BE-08: from the window, a side ticks units of one leader's box and passes them to
/// another leader of the zone before the phase's first activation.
#[test]
fn be_08_forces_are_shared_out_from_the_window() {
    use egui_kittest::kittest::Queryable as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.sqlite");
    let (store, c) = italy_in_operations(&path, &World::embedded().setup("italy-535").unwrap());
    let (from, to, boxes) = leaders_together(&c, &byz(), 1);
    drop(store);
    let name = |id: &str| c.state.setup.leader(id).unwrap().name.clone();
    let mut h = window(&path, "byzantines", 1400.0);
    h.get_by_label(&format!("Share out {} units", referee_campaign::core::words::owner_of(&name(&from)))).click();
    h.run();
    h.get_all_by_label_contains("1. ").next().unwrap().click();
    h.run();
    h.get_by_label(&format!("Pass to {}", name(&to))).click();
    h.run();
    assert!(h.state().message().is_none_or(|m| !m.is_error), "{:?}", h.state().message());
    let org = h.state().belisarius_view().unwrap().organisations()[0].clone();
    let units = |id: &str| org.boxes.iter().find(|b| b.leader.as_ref().is_some_and(|l| l.id == id)).unwrap().units.len();
    let before = |id: &str| boxes[id];
    assert_eq!((units(&from), units(&to)), (before(&from) - 1, before(&to) + 1));
}
