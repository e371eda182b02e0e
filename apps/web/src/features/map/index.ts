// The map feature's public face: the plant map itself and the tile settings it needs, for other pages
// that show plants on a map (the dashboard's mini map).
export { PlantMap, type PlacedPlant, type TileState } from './components/plant-map';
export { useMapSettings } from './api/get-map-settings';
// The map's styles travel with it: a page showing the map without the map page has them too.
import './map.css';
