import { useEffect, useRef, useState } from 'react';
import type { FeatureCollection } from 'geojson';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { MapSettingsAnswer, OperatingStatus, PlantOverviewItem } from '@solar/shared';
import L from '../leaflet';
import { loadCountryOutlines } from '../country-outline';
import { boundsOf, clusterHtml, clusterNames, clusterSizePx, markerHtml, worstStatus } from '../marker-icons';
import { outlineBoundsAround } from '../outline-bounds';
import { PlantPopup } from './plant-popup';

/** A plant's marker, with the status its icon shows (clusters read it to take their worst colour). */
type PlantMarker = L.Marker & { plantStatus: OperatingStatus; plantName: string; popupNode: HTMLDivElement };

/** A plant that has coordinates, which is every plant the map can place. */
export type PlacedPlant = PlantOverviewItem & { latitude: number; longitude: number };

export interface TileState {
  loaded: number;
  failed: number;
}

interface PlantMapProps {
  plants: readonly PlacedPlant[];
  settings: MapSettingsAnswer;
  dark: boolean;
  /** Called with the base layer's tile counts, so the page can say when it cannot be loaded. */
  onTiles: (state: TileState) => void;
  /** Changes to this number fit the view to every plant again (the "show all" button). */
  fitRequest: number;
  /** The base tiles cannot be loaded: names are written on the map and the view takes in the borders. */
  offline?: boolean;
}

const MARKER_PX = 30;
/** A single plant is shown at about the scale of its town rather than at the deepest zoom. */
const SINGLE_PLANT_ZOOM = 11;

/**
 * The Leaflet map: the configured tiles over shipped country outlines, one marker per plant coloured by
 * status and clustered, and a popup with the plant's figures. The map is made once; new overview answers
 * update markers in place, so the user's zoom and position stay where they are.
 */
export function PlantMap({ plants, settings, dark, onTiles, fitRequest, offline = false }: PlantMapProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const cluster = useRef<L.MarkerClusterGroup | null>(null);
  const markers = useRef(new Map<number, PlantMarker>());
  const fitted = useRef(false);
  const [outlines, setOutlines] = useState<FeatureCollection | null>(null);
  const offlineFitted = useRef(false);
  const [open, setOpen] = useState<{ plantId: number; marker: PlantMarker } | null>(null);
  // Texts and callbacks for Leaflet's handlers, which outlive renders.
  const texts = useRef({ t });
  const tileCounts = useRef<TileState>({ loaded: 0, failed: 0 });
  const reportTiles = useRef(onTiles);
  useEffect(() => {
    texts.current = { t };
    reportTiles.current = onTiles;
  });

  // The map, its panes, the outline layer and the cluster group: once per page.
  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    // maxZoom on the map itself: the cluster group needs it before the tile layer (added later) brings one.
    const created = L.map(element, { worldCopyJump: true, maxZoom: 19 }).setView([39, 35], 5);
    // Outlines sit below the tiles (tilePane is 200): hidden by a working base map, visible without one.
    created.createPane('outline').style.zIndex = '150';
    let cancelled = false;
    void loadCountryOutlines().then((loaded) => {
      if (cancelled) return;
      setOutlines(loaded);
      L.geoJSON(loaded, {
        pane: 'outline',
        interactive: false,
        style: { className: 'map-country', weight: 1, fillOpacity: 1 },
      }).addTo(created);
    });
    const group = L.markerClusterGroup({
      showCoverageOnHover: false,
      chunkedLoading: true,
      maxClusterRadius: 50,
      iconCreateFunction: (c) => {
        const children = c.getAllChildMarkers() as PlantMarker[];
        const status = worstStatus(children.map((m) => m.plantStatus)) ?? 'normal';
        const count = c.getChildCount();
        const size = clusterSizePx(count);
        const label = texts.current.t('mapView.cluster', {
          count,
          status: texts.current.t(`plantView.status.${status}`),
        });
        return L.divIcon({
          html: clusterHtml(count, status, label, clusterNames(children.map((m) => m.plantName))),
          className: 'plant-cluster-icon',
          iconSize: [size, size],
        });
      },
    });
    group.addTo(created);
    map.current = created;
    cluster.current = group;
    const known = markers.current;
    return () => {
      cancelled = true;
      created.remove();
      map.current = null;
      cluster.current = null;
      known.clear();
      fitted.current = false;
    };
  }, []);

  // The base layer: again when the configured server changes (it never does within a session).
  useEffect(() => {
    const created = map.current;
    if (!created) return undefined;
    tileCounts.current = { loaded: 0, failed: 0 };
    const tiles = L.tileLayer(settings.tile_url, {
      attribution: settings.tile_attribution,
      maxZoom: 19,
      className: 'map-tiles',
    });
    const report = (key: keyof TileState) => () => {
      tileCounts.current = { ...tileCounts.current, [key]: tileCounts.current[key] + 1 };
      reportTiles.current(tileCounts.current);
    };
    tiles.on('tileload', report('loaded'));
    tiles.on('tileerror', report('failed'));
    tiles.addTo(created);
    return () => {
      tiles.remove();
    };
  }, [settings.tile_url, settings.tile_attribution]);

  // Markers follow the overview: added, moved, re-coloured or removed in place.
  useEffect(() => {
    const group = cluster.current;
    if (!group) return;
    const seen = new Set<number>();
    const changed: PlantMarker[] = [];
    const added: PlantMarker[] = [];
    for (const p of plants) {
      seen.add(p.plant_id);
      const title = `${p.name} – ${t(`plantView.status.${p.status}`)}`;
      let marker = markers.current.get(p.plant_id);
      if (!marker) {
        const popupNode = document.createElement('div');
        popupNode.className = 'plant-popup-host';
        marker = Object.assign(
          L.marker([p.latitude, p.longitude], { title, alt: title, keyboard: true, riseOnHover: true }),
          { plantStatus: p.status, plantName: p.name, popupNode },
        );
        marker.bindPopup(popupNode, { minWidth: 220, maxWidth: 280, autoPanPadding: [16, 16] });
        const id = p.plant_id;
        const self = marker;
        marker.on('popupopen', () => setOpen({ plantId: id, marker: self }));
        marker.on('popupclose', () => setOpen((o) => (o?.plantId === id ? null : o)));
        // Its element exists only while it is on the map, not inside a cluster: name it each time.
        marker.on('add', () => marker?.getElement()?.setAttribute('data-plant-id', String(id)));
        marker.setIcon(iconFor(p.status, p.name));
        markers.current.set(p.plant_id, marker);
        added.push(marker);
        continue;
      }
      const at = marker.getLatLng();
      if (at.lat !== p.latitude || at.lng !== p.longitude) marker.setLatLng([p.latitude, p.longitude]);
      if (marker.plantStatus !== p.status || marker.plantName !== p.name) {
        marker.plantStatus = p.status;
        marker.plantName = p.name;
        marker.setIcon(iconFor(p.status, p.name));
        changed.push(marker);
      }
      marker.options.title = title;
      marker.getElement()?.setAttribute('title', title);
    }
    const removed = [...markers.current].filter(([id]) => !seen.has(id));
    for (const [id] of removed) markers.current.delete(id);
    if (removed.length > 0) group.removeLayers(removed.map(([, m]) => m));
    if (added.length > 0) group.addLayers(added);
    // Clusters keep their icon until told: a plant turning to fault must colour its cluster too.
    if (changed.length > 0) group.refreshClusters(changed);
  }, [plants, t]);

  // Fit every plant once the first ones are known, and again on request.
  useEffect(() => {
    const created = map.current;
    if (!created || plants.length === 0) return;
    if (fitted.current && fitRequest === 0) return;
    // The first fit is not animated: Leaflet ends a zoom animation on its own target, so a view asked for
    // meanwhile (the fit to the borders once the tiles are known to fail) would be undone.
    const animate = fitted.current;
    fitted.current = true;
    const bounds = offline && outlines ? outlineBoundsAround(outlines, plants) : boundsOf(plants);
    if (!bounds) return;
    if (offline && outlines) created.fitBounds(bounds, { padding: [24, 24], animate });
    else if (plants.length === 1) created.setView(bounds[0], SINGLE_PLANT_ZOOM, { animate });
    else created.fitBounds(bounds, { padding: [32, 32], maxZoom: SINGLE_PLANT_ZOOM, animate });
  }, [plants, fitRequest, offline, outlines]);

  // Without base tiles, a view fitted to the plants can be a plain field of one country's colour: once the
  // tiles are known to fail and the outlines are there, the view takes in the borders around the plants.
  useEffect(() => {
    const created = map.current;
    if (!created || !offline || !outlines || plants.length === 0 || offlineFitted.current) return;
    offlineFitted.current = true;
    const bounds = outlineBoundsAround(outlines, plants);
    if (bounds) created.fitBounds(bounds, { padding: [24, 24], animate: false });
  }, [offline, outlines, plants]);

  // The popup's content changed size: let Leaflet place it again.
  const shownPlant = open === null ? undefined : plants.find((p) => p.plant_id === open.plantId);
  const openMarker = shownPlant ? open?.marker : undefined;
  useEffect(() => {
    openMarker?.getPopup()?.update();
  }, [openMarker, shownPlant]);

  return (
    <div className={`plant-map${dark ? ' plant-map--dark' : ''}${offline ? ' plant-map--offline' : ''}`}>
      <div ref={host} className="plant-map-canvas" data-testid="plant-map" />
      {shownPlant && openMarker && createPortal(<PlantPopup plant={shownPlant} />, openMarker.popupNode)}
    </div>
  );
}

/** A status's marker icon; the badge is centred on the plant's position. */
function iconFor(status: OperatingStatus, name: string): L.DivIcon {
  return L.divIcon({
    html: markerHtml(status, name),
    className: 'plant-marker-icon',
    iconSize: [MARKER_PX, MARKER_PX],
    iconAnchor: [MARKER_PX / 2, MARKER_PX / 2],
    popupAnchor: [0, -MARKER_PX / 2],
  });
}
