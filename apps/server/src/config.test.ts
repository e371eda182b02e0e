import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('configuration from the environment', () => {
  it('defaults to SQLite in the data directory, port 8080 and the demo outside production', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({ dialect: 'sqlite', file: path.join(dataDir, 'solar.db') });
    expect(config.demo).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' }).demo).toBe(false);
  });

  it('allows the usual serial ports by default, and SERIAL_PORTS_ALLOW as absolute path prefixes only', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).deviceNetworks.serialPorts).toContain('/dev/ttyUSB');
    expect(loadConfig({ DATA_DIR: dataDir }).deviceNetworks.serialPorts).not.toContain('/dev/pts/');
    expect(
      loadConfig({ DATA_DIR: dataDir, SERIAL_PORTS_ALLOW: '/dev/ttyRS485, /dev/pts/' }).deviceNetworks
        .serialPorts,
    ).toEqual(['/dev/ttyRS485', '/dev/pts/']);
    expect(() => loadConfig({ DATA_DIR: dataDir, SERIAL_PORTS_ALLOW: 'ttyUSB' })).toThrow(ConfigError);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@db:5432/solar' });
    expect(config.database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@db:5432/solar',
      schema: 'public',
    });
  });

  it('generates the JWT secret once and keeps it, readable by the owner only', () => {
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
    const file = path.join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('takes the map tile server from MAP_TILE_URL and refuses a template the map cannot use', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).map).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileAttribution: '© OpenStreetMap contributors',
    });
    const local = loadConfig({ DATA_DIR: dataDir, MAP_TILE_URL: 'http://tiles.lan:8081/{z}/{x}/{y}.png' });
    expect(local.map.tileUrl).toBe('http://tiles.lan:8081/{z}/{x}/{y}.png');
    for (const bad of [
      'ftp://tiles/{z}/{x}/{y}.png',
      'https://tiles.lan/{x}/{y}.png',
      'javascript:alert(1)//{z}{x}{y}',
    ])
      expect(() => loadConfig({ DATA_DIR: dataDir, MAP_TILE_URL: bad }), bad).toThrow(
        /MAP_TILE_URL: must be an http\(s\) tile URL/,
      );
  });

  it('names every bad value with what it must be', () => {
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        PORT: '70000',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
        TRUST_PROXY: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT:/);
    expect(message).toMatch(/DATABASE_URL: must start with postgres:\/\//);
    expect(message).toMatch(/JWT_SECRET: must be at least 32 characters/);
    expect(message).toMatch(/TRUST_PROXY: must be true, false/);
  });
});
